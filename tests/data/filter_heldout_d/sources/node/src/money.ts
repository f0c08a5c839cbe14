export function formatCents(cents: number): string {
  return (cents / 100).toFixed(2) + " EUR";
}

export function parseCents(text: string): number {
  return Math.round(parseFloat(text) * 100);
}
