/** The document's prose with its Markdown code spans (`text`) as code, the only Markdown its descriptions use. */
export function InlineText({ text }: { text: string }) {
  return (
    <>
      {text.split(/`([^`]+)`/).map((part, index) =>
        // Odd parts were inside backticks; the parts never move, so their index is their key.
        index % 2 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <code key={index} className="font-mono text-[13px] text-fg">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
