export type Plan = 'annual' | 'monthly' | 'payg';

export interface Ride {
  id: string;
  minutes: number;
  plan: Plan;
  ebike?: boolean;
}

const FREE_MINUTES: Record<Plan, number> = { annual: 45, monthly: 30 };
const PER_MINUTE_PENCE = 5;

export function fare(ride: Ride): number {
  const free = FREE_MINUTES[ride.plan];
  const charged = Math.max(0, ride.minutes - free);
  const base = charged * PER_MINUTE_PENCE;
  return ride.ebike ? base * 1.5 : base;
}

export function monthlyTotal(rides: Ride[]): string {
  const total = rides.reduce((sum, r) => sum + fare(r), 0);
  return (total / 100).toFixed(2);
}

export function longest(rides: Ride[]): Ride {
  return rides.sort((a, b) => b.minutes - a.minutes)[0];
}
