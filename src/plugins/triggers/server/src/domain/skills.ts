/**
 * Skill names (CONTRACT 21): an organization's workflows as tools for agents. A name matches
 * `^[a-z0-9_]{1,64}$`, is made from the workflow's name, and is unique in the organization.
 *
 * Names are given in the order the workflows were created, over all of the organization's
 * workflows (disabled ones too): the first workflow keeps the plain name, a later one whose
 * name is taken gets its instance's name in front (then a number). So a name never changes
 * when a workflow is added, disabled or enabled again; deleting the workflow that held a name
 * may give it to the next one.
 */
export const SKILL_NAME = /^[a-z0-9_]{1,64}$/;
const MAX = 64;

/** `Send Invoice!` -> `send_invoice`; letters lose their accents; nothing usable -> `workflow`. */
export function slug(text: string, fallback = 'workflow'): string {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return plain.slice(0, MAX).replace(/_+$/, '') || fallback;
}

/** `a` and `b` joined with `_`, `a` cut so that the whole fits in 64 characters. */
function joined(prefix: string, name: string): string {
  const room = MAX - name.length - 1;
  if (room <= 0) return name.slice(0, MAX);
  return `${prefix.slice(0, room).replace(/_+$/, '')}_${name}`;
}

export interface NamedWorkflow {
  workflowId: string;
  workflowName: string;
  instanceName: string;
}

/** Each workflow's skill name, by workflow id; `workflows` in creation order. */
export function skillNames(workflows: readonly NamedWorkflow[]): Map<string, string> {
  const taken = new Set<string>();
  const names = new Map<string, string>();
  for (const workflow of workflows) {
    const base = slug(workflow.workflowName);
    let name = base;
    if (taken.has(name)) name = joined(slug(workflow.instanceName, 'instance'), base);
    const stem = name;
    for (let n = 2; taken.has(name); n += 1) name = joined(stem, String(n));
    taken.add(name);
    names.set(workflow.workflowId, name);
  }
  return names;
}
