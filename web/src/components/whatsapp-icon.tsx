/** WhatsApp's mark, drawn in the current colour (the widget, the contact page, the landing's preview). */
export function WhatsAppIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true" fill="none">
      <path d="M12 2.25a9.75 9.75 0 0 0-8.4 14.7L2.3 21.7l4.9-1.28A9.75 9.75 0 1 0 12 2.25Z" stroke="currentColor" strokeWidth="1.7" strokeLinejoin="round" />
      <path
        transform="translate(6.6 6.6) scale(0.45)"
        fill="currentColor"
        d="M22 16.92v3a2 2 0 0 1-2.18 2 19.79 19.79 0 0 1-8.63-3.07 19.5 19.5 0 0 1-6-6 19.79 19.79 0 0 1-3.07-8.67A2 2 0 0 1 4.11 2h3a2 2 0 0 1 2 1.72 12.84 12.84 0 0 0 .7 2.81 2 2 0 0 1-.45 2.11L8.09 9.91a16 16 0 0 0 6 6l1.27-1.27a2 2 0 0 1 2.11-.45 12.84 12.84 0 0 0 2.81.7A2 2 0 0 1 22 16.92z"
      />
    </svg>
  );
}
