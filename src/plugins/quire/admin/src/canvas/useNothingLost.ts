/**
 * Nothing lost, nothing to save: leaving the page (closing, reloading, another admin page) with
 * changes the server has not acknowledged asks first; Ctrl+S / Cmd+S says that everything is
 * stored as typed (or kept until the connection is back) instead of the browser's save dialog.
 */
import * as React from 'react';
import { useBlocker } from 'react-router-dom';
import { useMessages } from '../messages';
import type { useLiveArticle } from './live';

type Live = ReturnType<typeof useLiveArticle>;

export function useNothingLost(live: Live) {
  const { m, notify } = useMessages();

  const unsaved = live.unsynced > 0 || Boolean(live.provider?.hasUnsyncedChanges);
  const unsavedRef = React.useRef(unsaved);
  unsavedRef.current = unsaved;
  React.useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (!unsavedRef.current && !(live.provider?.hasUnsyncedChanges ?? false)) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [live.provider]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => unsavedRef.current && currentLocation.pathname !== nextLocation.pathname);
  React.useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(m('canvas.leave', 'Some of your changes have not reached the server yet (offline?). Leave anyway and lose them?'))) blocker.proceed();
    else blocker.reset();
  }, [blocker.state]); // eslint-disable-line react-hooks/exhaustive-deps

  React.useEffect(() => {
    const save = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's') return;
      event.preventDefault();
      live.provider?.flushPendingUpdates();
      const offline = live.status !== 'connected';
      if (offline) notify.warning(m('canvas.saveOffline', 'Offline: your changes are kept in this page and sent when the connection is back.'));
      else notify.info(m('canvas.savedAutomatically', 'Saved automatically: everything you type is stored as you go.'));
    };
    window.addEventListener('keydown', save);
    return () => window.removeEventListener('keydown', save);
  }, [live.provider, live.status]); // eslint-disable-line react-hooks/exhaustive-deps
}
