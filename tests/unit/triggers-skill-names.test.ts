/** Skill names (CONTRACT 21): made from workflow names, unique in an organization, stable. */
import { SKILL_NAME, skillNames, slug } from '../../src/plugins/triggers/server/src/domain/skills';

const wf = (workflowId: string, workflowName: string, instanceName = 'Main') => ({ workflowId, workflowName, instanceName });

describe('skill names', () => {
  it('makes a tool name of a workflow name', () => {
    expect(slug('Send Invoice!')).toBe('send_invoice');
    expect(slug('  Crème brûlée -- v2 ')).toBe('creme_brulee_v2');
    expect(slug('!!!')).toBe('workflow');
    expect(slug('x'.repeat(100))).toHaveLength(64);
    expect(slug(`${'a'.repeat(63)} b`)).toBe('a'.repeat(63));
  });

  it('gives the first workflow the plain name, prefixes later ones with their instance, then numbers', () => {
    const names = skillNames([wf('1', 'Send invoice', 'Billing'), wf('2', 'send-invoice', 'Support Desk'), wf('3', 'Send Invoice', 'Support Desk'), wf('4', 'Refund')]);
    expect([...names.values()]).toEqual(['send_invoice', 'support_desk_send_invoice', 'support_desk_send_invoice_2', 'refund']);
  });

  it('keeps every name within 64 characters and unique, however long the names', () => {
    const long = 'A workflow name that is much longer than sixty-four characters, really quite long';
    const list = Array.from({ length: 12 }, (_, i) => wf(String(i), long, 'An instance whose name is also much longer than sixty-four characters'));
    const names = [...skillNames(list).values()];
    expect(new Set(names).size).toBe(12);
    for (const name of names) expect(name).toMatch(SKILL_NAME);
  });

  it('is stable: adding a workflow renames none of the earlier ones', () => {
    const before = skillNames([wf('1', 'Sync'), wf('2', 'Sync', 'Other')]);
    const after = skillNames([wf('1', 'Sync'), wf('2', 'Sync', 'Other'), wf('3', 'Sync', 'Other'), wf('4', 'Sync')]);
    expect(after.get('1')).toBe(before.get('1'));
    expect(after.get('2')).toBe(before.get('2'));
  });
});
