CREATE INDEX order_lines_sku ON order_lines (sku);
