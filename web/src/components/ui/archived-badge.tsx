import { Badge } from './misc.tsx';
import { Tooltip } from './tooltip.tsx';

/** The 'Arquivado' badge of a list row, with why (the plan's limit, or an administrator) in a tooltip that keyboards reach too. */
export function ArchivedBadge({ why }: { why: string }) {
  return (
    <Tooltip content={why}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can open the tooltip that explains the archiving */}
      <span tabIndex={0} className="rounded-full focus-visible:outline-2 focus-visible:outline-ring">
        <Badge tone="warning">Arquivado</Badge>
      </span>
    </Tooltip>
  );
}
