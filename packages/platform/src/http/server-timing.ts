import { subscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import type { Response } from 'express';
import { currentContext, type RequestContext } from '../context.js';

export type RequestStage = 'db' | 'pool' | 'upstream' | 'before_upstream';

/**
 * Where one request's time went in this process: summed query time (parallel queries count each),
 * waits for a pooled connection, and calls to other services until their answer began.
 */
export class RequestTiming {
  readonly started = performance.now();
  private readonly totals = new Map<RequestStage, number>();
  private firstUpstreamAt: number | undefined;

  add(stage: 'db' | 'pool' | 'upstream', ms: number): void {
    this.totals.set(stage, (this.totals.get(stage) ?? 0) + ms);
  }

  upstreamStarted(at: number): void {
    this.firstUpstreamAt ??= at;
  }

  /** Whether the request called another service (the gateway proxying it, for one). */
  get calledUpstream(): boolean {
    return this.firstUpstreamAt !== undefined;
  }

  /** Only the stages the request went through. */
  stages(): Map<RequestStage, number> {
    const out = new Map(this.totals);
    if (this.firstUpstreamAt !== undefined) out.set('before_upstream', this.firstUpstreamAt - this.started);
    return out;
  }

  /**
   * Server-Timing entries of this process, each naming the service in `desc` so that a service's
   * entries and the gateway's stay apart once merged. Durations only, rounded to 0.1 ms: no query,
   * address or identifier ever goes into the header.
   */
  header(service: string, now = performance.now()): string {
    const entry = (name: string, ms: number) => `${name};desc="${service}";dur=${ms.toFixed(1)}`;
    return [
      ...[...this.stages()].map(([stage, ms]) => entry(stage, ms)),
      entry('app', now - this.started),
    ].join(', ');
  }
}

// Keyed by the request's context object, which lives exactly as long as the request's async work.
const timings = new WeakMap<RequestContext, RequestTiming>();

export const startRequestTiming = (ctx: RequestContext): RequestTiming => {
  const timing = new RequestTiming();
  timings.set(ctx, timing);
  return timing;
};

/** The timing of the request whose async work is running, if any (none in a message handler). */
export const currentTiming = (): RequestTiming | undefined => timings.get(currentContext());

/**
 * Runs `beforeHeaders` once, just before the status line and headers go out, however they are sent
 * (an explicit writeHead, or the first write or end).
 */
export const beforeHeaders = (res: Response, run: () => void): void => {
  const writeHead = res.writeHead as (...args: unknown[]) => Response;
  let done = false;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (!done) {
      done = true;
      run();
    }
    return writeHead.apply(this, args);
  } as typeof res.writeHead;
};

/** Appends this process's entries to any Server-Timing already set (the one an upstream answered with). */
export const appendServerTiming = (res: Response, entries: string): void => {
  const existing = res.getHeader('server-timing');
  const before = existing === undefined ? [] : [existing].flat().map(String);
  res.setHeader('Server-Timing', [...before, entries].join(', '));
};

type Outgoing = { timing: RequestTiming; started: number };
let watchingOutgoing = false;

/**
 * Times every outgoing HTTP call (node:http, as the gateway's proxy makes them, and fetch/undici,
 * as the internal clients do) against the request that made it, through Node's diagnostics
 * channels: no client needs to know. Process-wide, as the channels are; subscribing twice is a no-op.
 */
export const watchOutgoingCalls = (): void => {
  if (watchingOutgoing) return;
  watchingOutgoing = true;
  const inFlight = new WeakMap<object, Outgoing>();
  const started = (message: unknown) => {
    const timing = currentTiming();
    if (!timing) return;
    const at = performance.now();
    timing.upstreamStarted(at);
    inFlight.set((message as { request: object }).request, { timing, started: at });
  };
  const answered = (message: unknown) => {
    const request = (message as { request: object }).request;
    const call = inFlight.get(request);
    if (!call) return;
    inFlight.delete(request);
    call.timing.add('upstream', performance.now() - call.started);
  };
  subscribe('http.client.request.created', started);
  subscribe('http.client.response.finish', answered);
  subscribe('undici:request:create', started);
  subscribe('undici:request:headers', answered);
};
