/** The part of autocannon's programmatic API that npm run bench:vps uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p97_5: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    '2xx': number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests instead of a duration. */
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  /** A run: its result when awaited, and a `tick` event each second while it runs. */
  export default function autocannon(
    options: Options,
  ): Promise<Result> & { on(event: 'tick', listener: () => void): unknown };
}
