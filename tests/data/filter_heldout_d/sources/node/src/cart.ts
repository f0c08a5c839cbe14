export interface Item {
  sku: string;
  qty: number;
  priceCents: number;
}

export interface Cart {
  id: string;
  items: Item[];
  coupon?: string;
}

export function total(cart: Cart): number {
  return cart.items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);
}

export function addItem(cart: Cart, sku: string, qty: number, price: string): Cart {
  const items = [...cart.items, { sku, qty, priceCents: price }];
  return { ...cart, items };
}

export function couponCode(cart: Cart): string {
  return cart.coupon.toUpperCase();
}
