import { describe, expect, it } from 'vitest';
import { dateHint, inDateHint } from '../../../src/text/dates.js';

describe('dateHint', () => {
  it('reads a month, a month with a year, and a year', () => {
    expect(dateHint('what did we decide in March?')).toEqual({ month: 2 });
    expect(dateHint('the outage of June 2024')).toEqual({ month: 5, year: 2024 });
    expect(dateHint('releases in 2025')).toEqual({ year: 2025 });
    expect(dateHint('what changed in May')).toEqual({ month: 4 });
  });

  it('ignores the modal "may" and texts without a period', () => {
    expect(dateHint('may I use redis here')).toBeNull();
    expect(dateHint('port 2025 is taken')).toBeNull();
  });

  it('tests an ISO date against the period', () => {
    expect(inDateHint('2025-03-14T10:00:00Z', { month: 2 })).toBe(true);
    expect(inDateHint('2025-03-14T10:00:00Z', { month: 2, year: 2024 })).toBe(false);
    expect(inDateHint('not a date', { year: 2025 })).toBe(false);
  });
});
