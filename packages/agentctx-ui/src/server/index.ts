export { createDashboardApp } from './app.js';
export type { DashboardContext } from './context.js';
export {
  contextFromApp,
  DEFAULT_PORT,
  HOST,
  newToken,
  type RunningDashboard,
  type StartOptions,
  startDashboard,
} from './start.js';
