"""What the model reads: sanitize, declarative filters, security lines, secrets, overflow."""
