import { formatUsd } from './format';

// '$0.0675' or '$0.0675 spent (+$0.2500 reserved in flight)': the spent figure (settled calls)
// only grows; calls not settled yet are said apart at their reserved cost, which they settle below.
export function formatCost(costUsd: number, reservedUsd = 0, open = true): string {
  if (!reservedUsd) return formatUsd(costUsd);
  const where = open ? 'in flight' : 'by calls never settled';
  return `${formatUsd(costUsd)} spent (+${formatUsd(reservedUsd)} reserved ${where})`;
}

// A score as lists show it: '100.0', '11.18', '4.57'.
export function formatScore(x: number): string {
  const two = x.toFixed(2);
  return two.endsWith('0') ? x.toFixed(1) : two;
}
