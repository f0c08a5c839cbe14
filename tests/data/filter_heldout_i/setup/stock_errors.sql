-- the stock schema's first migration, run while the benchmark hammers the server: a check constraint that a
-- scan breaks, a typo in a report, a table the report expects and nobody created
CREATE TABLE IF NOT EXISTS donation (id serial PRIMARY KEY, sku int NOT NULL, qty int CHECK (qty > 0), depot text);
INSERT INTO donation (sku, qty, depot) VALUES (1001, 3, 'north'), (1002, 6, 'south');
INSERT INTO donation (sku, qty, depot) VALUES (1003, -1, 'annex');
SELECT depot, sum(qty) FROM donation GROUP BY depo;
SELECT d.depot, sum(d.qty) / h.households FROM donation d JOIN household_count h USING (depot) GROUP BY d.depot, h.households;
