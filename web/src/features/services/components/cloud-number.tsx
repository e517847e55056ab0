/**
 * WhatsApp (API oficial): the number as Meta answered on the last save (verified name, display
 * number) and its quality rating as a badge ('Qualidade: Alta' / 'Média' / 'Baixa').
 */
import type { CloudQualityRating, Service } from '#contracts/services.ts';
import { Badge } from '#web/components/ui/misc.tsx';

export const cloudQualityLabels: Record<CloudQualityRating, string> = {
  GREEN: 'Alta',
  YELLOW: 'Média',
  RED: 'Baixa',
  UNKNOWN: 'Sem avaliação',
};

// The Badge tones are the theme's soft pairs, checked by axe in both themes.
const tones = { GREEN: 'success', YELLOW: 'warning', RED: 'danger', UNKNOWN: 'neutral' } as const;

export function CloudQualityBadge({ rating }: { rating: CloudQualityRating }) {
  return <Badge tone={tones[rating] ?? 'neutral'}>Qualidade: {cloudQualityLabels[rating] ?? cloudQualityLabels.UNKNOWN}</Badge>;
}

/** 'Doceria da Ana · +55 11 3000-1000' and the quality badge, under the type in the list. */
export function CloudNumberSummary({ service }: { service: Service }) {
  if (service.type !== 'whatsapp_cloud') return null;
  const number = [service.verifiedName, service.displayPhoneNumber].filter(Boolean).join(' · ');
  if (!number && !service.qualityRating) return null;
  return (
    <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-muted">
      {number ? <span className="break-words">{number}</span> : null}
      {service.qualityRating ? <CloudQualityBadge rating={service.qualityRating} /> : null}
    </span>
  );
}
