declare const __AGENTCTX_VERSION__: string | undefined;

/** Injected at build time from package.json; "dev" when running from source. */
export const VERSION: string = typeof __AGENTCTX_VERSION__ === 'string' ? __AGENTCTX_VERSION__ : '0.0.0-dev';
