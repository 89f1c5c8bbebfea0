import type { Core } from '@strapi/strapi';
import { notFound } from '#kernel/errors';
import { generateSecret, hashSecret, safeEqual } from '#kernel/secrets';
import { INSTANCE_KEY_PREFIX } from '../domain/keys';
import { instanceScope, type Principal } from '../domain/principal';
import { iso } from '#kernel/db';
import type { InstanceRecord } from '../schemas/records';
import { orgNotFound } from './organizations';
import { instancesRepository } from '../repositories/instances';
import type { TriggerWorkflow } from '../repositories/workflows';
import { getService } from './get-service';

const FIELDS = ['id', 'documentId', 'organizationId', 'userId', 'name', 'keyCiphertext', 'createdAt'];

export const instanceNotFound = (id: string) =>
  notFound(`No process instance with id ${id}.`, 'Call GET /api/process-instances for your instances.');

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repo = instancesRepository(strapi);
  const vault = () => getService(strapi, 'vault');

  const record = (row): InstanceRecord => ({
    id: row.documentId,
    organizationId: row.organizationId,
    name: row.name,
    apiKey: vault().openInstanceKey(row.keyCiphertext),
    createdAt: iso(row.createdAt)!,
  });

  function newKey() {
    const key = generateSecret(INSTANCE_KEY_PREFIX);
    return { keyHash: hashSecret(key), keyCiphertext: vault().sealInstanceKey(key) };
  }

  /** The instance row when the principal may use it; 404 otherwise (missing and not-yours look alike). */
  async function accessible(principal: Principal, instanceId: string, select = ['id', 'documentId', 'organizationId', 'userId']) {
    const row = await repo.findOne({ documentId: instanceId, ...instanceScope(principal) }, select);
    if (!row) throw instanceNotFound(instanceId);
    return row;
  }

  /** The owner of an organization the principal may create instances in; 404 otherwise. */
  async function organizationOwner(principal: Principal, organizationId: string): Promise<number> {
    if (principal.kind === 'organization') {
      if (principal.organizationId !== organizationId) throw orgNotFound(organizationId);
      return principal.userId;
    }
    await getService(strapi, 'organizations').owned(principal.userId, organizationId);
    return principal.userId;
  }

  return {
    accessible,

    async create(principal: Principal, input: { organizationId: string; name: string }): Promise<InstanceRecord> {
      const userId = await organizationOwner(principal, input.organizationId);
      const row = await repo.create({ organizationId: input.organizationId, userId, name: input.name, ...newKey() }, FIELDS);
      return record(row);
    },

    async list(principal: Principal, organizationId?: string): Promise<InstanceRecord[]> {
      if (organizationId) await organizationOwner(principal, organizationId);
      const where = { ...instanceScope(principal), ...(organizationId ? { organizationId } : {}) };
      const rows = await repo.findMany(where, FIELDS);
      return rows.map(record);
    },

    async get(principal: Principal, instanceId: string): Promise<InstanceRecord> {
      return record(await accessible(principal, instanceId, FIELDS));
    },

    /** A new key; the old one stops working with this write (lookups go by the stored hash, no cache). */
    async regenerateKey(principal: Principal, instanceId: string): Promise<InstanceRecord> {
      const row = await accessible(principal, instanceId);
      const updated = await repo.update(row.id, newKey(), FIELDS);
      return record(updated);
    },

    /**
     * The instance a presented `ck_` key belongs to, or null. Looked up by its indexed hash.
     * With `trigger` (the URL's instance and workflow), the workflow comes in the same read
     * (`workflow`: null when the URL names none); it is the URL's, whatever the key grants.
     */
    async findByKey(
      secret: string,
      trigger?: { instanceId: string; workflowId: string },
    ): Promise<{ documentId: string; organizationId: string; userId: number; workflow?: TriggerWorkflow | null } | null> {
      const hash = hashSecret(secret);
      // The hot path of every keyed trigger: one indexed read.
      if (trigger) {
        const row = await repo.byKeyHashWithWorkflow(hash, trigger.instanceId, trigger.workflowId);
        if (!row || !safeEqual(row.key_hash, hash)) return null;
        return { documentId: row.document_id, organizationId: row.organization_id, userId: Number(row.user_id), workflow: row.workflow };
      }
      const row = await repo.byKeyHash(hash);
      if (!row || !safeEqual(row.key_hash, hash)) return null;
      return { documentId: row.document_id, organizationId: row.organization_id, userId: Number(row.user_id) };
    },

    /** Whether an instance with this id exists in the organization. */
    async inOrganization(instanceId: string, organizationId: string): Promise<boolean> {
      return Boolean(await repo.findOne({ documentId: instanceId, organizationId }, ['id']));
    },
  };
};
