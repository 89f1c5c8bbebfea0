/**
 * Who is in the article and how the live connection is (CONTRACT 19): `[data-presence]` names
 * the people with the article open (awareness) and the agents that wrote in the last 60 s (the
 * server's presence route); the status says whether what is typed has reached the server.
 */
import { Box, Flex, Typography } from '@strapi/design-system';
import * as React from 'react';
import { useMessages } from '../messages';
import type { LiveStatus, LiveUser, Peer } from './live';

/** An entry of the server's presence answer (CONTRACT 19), other than the editors. */
export interface PresentAgent {
  kind: string;
  name: string;
  section: string | null;
  since: string;
}

const Dot = ({ color }: { color: string }) => (
  <span aria-hidden style={{ display: 'inline-block', width: 10, height: 10, borderRadius: '50%', background: color, flex: 'none' }} />
);

export const PresenceBar = ({ me, peers, agents }: { me: LiveUser | null; peers: Peer[]; agents: PresentAgent[] }) => {
  const { m } = useMessages();
  // One entry per person, even with the article open in two tabs.
  const people = [...new Map(peers.map((peer) => [String(peer.id ?? peer.name), peer])).values()].filter((peer) => !me || String(peer.id ?? peer.name) !== String(me.id ?? me.name));
  const agentNames = [...new Set(agents.map((agent) => agent.name))];
  const names = [...people.map((peer) => peer.name), ...agentNames];
  return (
    <Flex gap={3} wrap="wrap" alignItems="center" data-presence={names.join(', ')} aria-label={m('presence.label', 'Who is here')} role="group">
      <Typography variant="pi" fontWeight="bold" textColor="neutral700">
        {m('presence.here', 'Here:')}
      </Typography>
      {me ? (
        <Flex gap={1} alignItems="center" data-person="me">
          <Dot color={me.color} />
          <Typography variant="pi">{m('presence.you', '{name} (you)', { name: me.name })}</Typography>
        </Flex>
      ) : null}
      {people.map((peer) => (
        <Flex key={peer.clientId} gap={1} alignItems="center" data-person={peer.name}>
          <Dot color={peer.color} />
          <Typography variant="pi">{peer.name}</Typography>
        </Flex>
      ))}
      {agentNames.map((name) => (
        <Flex key={`agent-${name}`} gap={1} alignItems="center" data-agent={name}>
          <Box tag="span" hasRadius background="neutral150" paddingLeft={1} paddingRight={1}>
            <Typography variant="pi" textColor="neutral700">
              {m('presence.agent', 'agent')}
            </Typography>
          </Box>
          <Typography variant="pi">{name}</Typography>
        </Flex>
      ))}
    </Flex>
  );
};

export const LiveStatusBadge = ({
  status,
  synced,
  unsynced,
  reason,
  readOnly = false,
  unreachable = false,
}: {
  status: LiveStatus;
  synced: boolean;
  unsynced: number;
  reason: string | null;
  readOnly?: boolean;
  unreachable?: boolean;
}) => {
  const { m } = useMessages();
  const [state, colour, text] =
    status !== 'refused' && !synced && unreachable
      ? ([
          'unreachable',
          'danger600',
          m(
            'live.unreachable',
            'Live editing cannot connect, so this page is read-only. The live channel (a WebSocket at /quire/live) did not open: a proxy or firewall that does not pass WebSocket upgrades is the usual cause. See docs/operations.md, "Behind a reverse proxy". The page keeps trying.',
          ),
        ] as const)
      : status === 'refused'
      ? (['refused', 'danger600', reason ? m('live.refusedWhy', 'Live editing refused: {reason}', { reason }) : m('live.refused', 'Live editing refused')] as const)
      : status === 'connected' && readOnly && reason
        ? (['read-only', 'warning600', m('live.readOnlyNow', 'Read-only now: {reason}', { reason })] as const)
      : status === 'connected' && synced
        ? unsynced > 0
          ? (['saving', 'neutral600', m('live.saving', 'Saving…')] as const)
          : (['saved', 'success600', m('live.saved', 'All changes saved')] as const)
        : synced
          ? (['offline', 'warning600', m('live.offline', 'Offline: your changes are kept in this page and sent when the connection is back')] as const)
          : (['connecting', 'neutral600', m('live.connecting', 'Connecting…')] as const);
  return (
    <Flex gap={2} alignItems="center" data-live-status={state} role="status" aria-live="polite">
      <Dot color={state === 'saved' ? '#2f9e44' : state === 'offline' ? '#d9480f' : state === 'refused' || state === 'unreachable' ? '#c92a2a' : '#868e96'} />
      <Typography variant="pi" textColor={colour}>
        {text}
      </Typography>
    </Flex>
  );
};
