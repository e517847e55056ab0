import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationStatus, InboxCounts, InboxTab } from '#contracts/conversations.ts';
import { InboxTabs } from './inbox-tabs.tsx';

const counts: InboxCounts = {
  mine: { total: 4, open: 3, pending: 1, resolved: 0 },
  unassigned: { total: 1, open: 1, pending: 0, resolved: 0 },
  all: { total: 12, open: 7, pending: 2, resolved: 3 },
};

function Harness({ status = 'open' as '' | ConversationStatus, loaded = true }) {
  const [tab, setTab] = useState<InboxTab>('all');
  return <InboxTabs tab={tab} status={status} counts={loaded ? counts : undefined} onChange={setTab} />;
}

afterEach(cleanup);

const selected = () => screen.getAllByRole('tab').filter((t) => t.getAttribute('aria-selected') === 'true');

describe('the inbox tabs', () => {
  it('name each tab with its count in the chosen status, as a badge and in its accessible name', () => {
    const { rerender } = render(<Harness />);
    expect(screen.getByRole('tablist', { name: 'Listas de conversas' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Meus, 3 conversas' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Não atribuídos, 1 conversa' })).toBeTruthy();
    // Seen as the name and a badge.
    expect(screen.getByRole('tab', { name: 'Todos, 7 conversas' }).querySelector('[aria-hidden="true"].rounded-full')?.textContent).toBe('7');
    rerender(<Harness status="" />);
    expect(screen.getByRole('tab', { name: 'Todos, 12 conversas' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Meus, 4 conversas' })).toBeTruthy();
    rerender(<Harness status="resolved" />);
    expect(screen.getByRole('tab', { name: 'Meus, 0 conversas' })).toBeTruthy();
  });

  it('shows the names alone until the counts arrive', () => {
    render(<Harness loaded={false} />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Meus', 'Não atribuídos', 'Todos']);
    expect(screen.getByRole('tab', { name: 'Meus' })).toBeTruthy();
  });

  it('keeps one tab stop and moves and selects with Left, Right (wrapping), Home and End', () => {
    render(<Harness />);
    const tabIndexes = () => screen.getAllByRole('tab').map((t) => t.tabIndex);
    expect(selected().map((t) => t.id)).toEqual(['inbox-tab-all']);
    expect(tabIndexes()).toEqual([-1, -1, 0]);

    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
    screen.getByRole('tab', { name: /^Todos/ }).focus();
    press('ArrowRight');
    expect(document.activeElement?.id).toBe('inbox-tab-mine');
    expect(selected().map((t) => t.id)).toEqual(['inbox-tab-mine']);
    expect(tabIndexes()).toEqual([0, -1, -1]);
    press('ArrowLeft');
    expect(document.activeElement?.id).toBe('inbox-tab-all');
    press('ArrowLeft');
    expect(document.activeElement?.id).toBe('inbox-tab-unassigned');
    expect(selected().map((t) => t.id)).toEqual(['inbox-tab-unassigned']);
    press('Home');
    expect(document.activeElement?.id).toBe('inbox-tab-mine');
    press('End');
    expect(document.activeElement?.id).toBe('inbox-tab-all');
    expect(tabIndexes()).toEqual([-1, -1, 0]);
    // Other keys are left alone.
    press('ArrowDown');
    expect(selected().map((t) => t.id)).toEqual(['inbox-tab-all']);
    // A click selects too.
    fireEvent.click(screen.getByRole('tab', { name: /^Não atribuídos/ }));
    expect(selected().map((t) => t.id)).toEqual(['inbox-tab-unassigned']);
    for (const tab of screen.getAllByRole('tab')) expect(tab.getAttribute('aria-controls')).toBe('inbox-tabpanel');
  });
});
