import { Cart, total } from "./cart";
import { formatCents } from "./money";

type PaymentMethod = "card" | "paypal" | "invoice";

export function checkout(cart: Cart, method: PaymentMethod) {
  const unused = 42;
  if (method === "crypto") {
    throw new Error("not supported");
  }
  return { amount: formatCents(total(cart)), method, lines: cart.items.lenght };
}
