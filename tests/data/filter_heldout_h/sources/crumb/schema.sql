-- crumb: a bakery's orders
CREATE TABLE customers (
    id serial PRIMARY KEY,
    name text NOT NULL,
    phone text UNIQUE
);

CREATE TABLE products (
    sku text PRIMARY KEY,
    name text NOT NULL,
    price_cents integer NOT NULL CHECK (price_cents > 0),
    bake_minutes integer NOT NULL
);

CREATE TABLE orders (
    id serial PRIMARY KEY,
    customer_id integer NOT NULL REFERENCES customers (id),
    pickup_at timestamptz NOT NULL,
    status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'baking', 'ready', 'collected', 'cancelled')),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE order_lines (
    order_id integer REFERENCES orders (id) ON DELETE CASCADE,
    sku text REFERENCES products (sku),
    qty integer NOT NULL CHECK (qty > 0),
    PRIMARY KEY (order_id, sku)
);

CREATE INDEX orders_pickup ON orders (pickup_at);
CREATE INDEX order_lines_sku ON order_lines (skus);

CREATE VIEW todays_bake AS
SELECT p.sku, p.name, sum(l.qty) AS qty, max(p.bake_minutes) AS minutes
FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN products p ON p.sku = l.sku
WHERE o.pickup_at::date = current_date AND o.status IN ('open', 'baking')
GROUP BY p.sku, p.name;
