import type { Core } from '@strapi/strapi';
import { invalidArgument } from '#kernel/errors';
import { articleImport, articleNote } from '../actions/articles';
import echo from '../actions/echo';
import http from '../actions/http';
import type { ActionDefinition, ActionHandler } from '../actions/types';
import { getService } from './get-service';

const NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

/**
 * The action registry: what a workflow's `action` may name. Other plugins add theirs in their
 * own register or bootstrap:
 *   getService(strapi, 'actions').register('crm.sync', async (input, ctx) => ...)
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const actions = new Map<string, ActionDefinition>();

  const registry = {
    register(name: string, handler: ActionHandler) {
      if (!NAME.test(name)) throw new Error(`Invalid action name "${name}": lower-case words separated by dots.`);
      if (actions.has(name)) throw new Error(`The action "${name}" is already registered.`);
      const definition = typeof handler === 'function' ? { run: handler } : handler;
      if (typeof definition?.run !== 'function') throw new Error(`The action "${name}" needs a run function.`);
      actions.set(name, definition);
    },

    names(): string[] {
      return [...actions.keys()].sort();
    },

    get(name: string): ActionDefinition | undefined {
      return actions.get(name);
    },

    /** The definition of a workflow's action; 400 naming the registered ones otherwise. */
    require(name: string): ActionDefinition {
      const found = actions.get(name);
      if (!found) {
        throw invalidArgument(`action: unknown action "${name}".`, `Use one of: ${registry.names().join(', ')}.`);
      }
      return found;
    },

    /** A workflow config checked by its action (any JSON object when the action does not say). */
    parseConfig(name: string, config: unknown): Record<string, unknown> {
      const action = registry.require(name);
      if (action.parseConfig) return action.parseConfig(config, { strapi });
      if (config === undefined) return {};
      if (config === null || typeof config !== 'object' || Array.isArray(config)) throw invalidArgument('config must be an object.');
      return config as Record<string, unknown>;
    },

    maxAttempts(name: string, config: Record<string, unknown>): number {
      const attempts = actions.get(name)?.maxAttempts?.(config) ?? 1;
      return Math.max(1, Math.floor(attempts));
    },
  };

  registry.register('echo', echo);
  registry.register('http', http);
  registry.register('article.import', articleImport);
  registry.register('article.note', articleNote);
  return registry;
};
