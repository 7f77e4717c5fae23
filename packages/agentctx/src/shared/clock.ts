export type Clock = () => Date;
export type IdGen = () => string;

export const systemClock: Clock = () => new Date();
