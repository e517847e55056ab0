import { constraintsOf, fieldsOwner, type JsonSchema, type OpenApiDocument, typeLabel } from './reference-model.ts';

/** How deep nested objects are opened (a contact's last message is; its fields' own objects are not). */
const maxDepth = 3;

/**
 * A JSON Schema as a readable list of fields: name, type, whether it is required, its rules, and
 * the fields of nested objects (each component opened once along a branch).
 */
export function SchemaFields({
  document,
  schema,
  seen = new Set(),
  depth = 0,
}: {
  document: OpenApiDocument;
  schema: JsonSchema;
  seen?: ReadonlySet<string>;
  depth?: number;
}) {
  const owner = fieldsOwner(document, schema, seen);
  if (!owner?.schema.properties) return <p className="text-sm text-fg-muted">{typeLabel(document, schema)}</p>;
  const nextSeen = owner.name ? new Set([...seen, owner.name]) : seen;
  const required = new Set(owner.schema.required ?? []);
  return (
    <ul className="divide-y divide-border text-sm">
      {Object.entries(owner.schema.properties).map(([name, field]) => {
        const rules = constraintsOf(field);
        const nested = depth < maxDepth ? fieldsOwner(document, field, nextSeen) : undefined;
        return (
          <li key={name} className="py-2">
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <code className="font-mono text-[13px] font-semibold break-all text-fg">{name}</code>
              <span className="text-xs text-fg-muted">{typeLabel(document, field)}</span>
              {required.has(name) ? <span className="rounded border border-border-strong px-1.5 text-xs font-medium text-fg">obrigatório</span> : null}
            </div>
            {field.description ? <p className="mt-1 text-fg-muted">{field.description}</p> : null}
            {rules.length ? <p className="mt-1 text-xs break-words text-fg-muted">{rules.join('; ')}</p> : null}
            {nested ? (
              <div className="mt-2 border-l-2 border-border pl-3">
                <SchemaFields document={document} schema={field} seen={nextSeen} depth={depth + 1} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
