"""tallyhub: invoices, VAT and a worker that renders and mails them."""
__version__ = "0.4.1"
