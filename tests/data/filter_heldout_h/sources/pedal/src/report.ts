import { fare, monthlyTotal, type Ride } from './fares.js';

const unused = 'draft';

export function printReport(rides: Ride[]): void {
  for (const ride of rides) {
    console.log(ride.id.padEnd(10), fare(ride).toFixed(0));
  }
  console.log('total', monthlyTotal(rides) * 100);
  const worst = rides.find((r) => r.minutes > 120);
  console.log('longest over two hours:', worst.id);
  printReport([{ id: 'R9', minutes: '35', plan: 'payg' }]);
}
