/**
 * Each connection type's icon and colour, in one place for every screen that switches on
 * `ServiceType` (the connections list, the contacts' connection, the inbox's channel marks):
 * WhatsApp paired by QR a speech bubble, WhatsApp's official Cloud API a verified seal, Telegram a
 * paper plane.
 */
import { BadgeCheck, MessageCircle, Send, type LucideIcon } from 'lucide-react';
import type { ServiceType } from '#contracts/service-labels.ts';

const channelTypeIcons: Record<ServiceType, LucideIcon> = {
  whatsapp: MessageCircle,
  whatsapp_cloud: BadgeCheck,
  telegram: Send,
};

/** Colours with at least 3:1 against the page in both themes (WCAG 1.4.11 for graphics). */
const channelTypeColours: Record<ServiceType, string> = {
  whatsapp: 'text-emerald-600 dark:text-emerald-400',
  whatsapp_cloud: 'text-teal-700 dark:text-teal-300',
  telegram: 'text-sky-600 dark:text-sky-400',
};

/** An unknown type (an old cached list) shows as WhatsApp, as before the Cloud API existed. */
export function channelTypeStyle(type: ServiceType | undefined): { Icon: LucideIcon; colour: string } {
  const known = type && type in channelTypeIcons ? type : 'whatsapp';
  return { Icon: channelTypeIcons[known], colour: channelTypeColours[known] };
}
