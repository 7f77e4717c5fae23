import type { HookAgent } from '../../shared/agents.js';
import type { HookAdapter } from './adapter.js';
import { claudeCodeAdapter } from './claude-code.js';
import { codexAdapter } from './codex.js';
import { copilotAdapter } from './copilot.js';
import { cursorAdapter } from './cursor.js';
import { geminiAdapter } from './gemini.js';
import { opencodeAdapter } from './opencode.js';
import { qwenAdapter } from './qwen.js';

export const HOOK_ADAPTERS: Record<HookAgent, HookAdapter> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  qwen: qwenAdapter,
  gemini: geminiAdapter,
  opencode: opencodeAdapter,
  cursor: cursorAdapter,
  copilot: copilotAdapter,
};
