export type Clock = () => Date;
export type IdGen = () => string;

export const systemClock: Clock = () => new Date();

export function iso(clock: Clock): string {
  return clock().toISOString();
}
