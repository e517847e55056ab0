import { describe, expect, it } from 'vitest';
import { anchorOf, constraintsOf, fieldsOwner, type OpenApiDocument, referenceAreas, typeLabel } from './reference-model.ts';

const operation = (operationId: string, tag: string, scope?: string) => ({
  operationId,
  summary: operationId,
  description: '',
  tags: [tag],
  'x-auth': 'member' as const,
  ...(scope ? { 'x-token-scope': scope } : {}),
  responses: {},
});

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'API', version: '1', description: '' },
  tags: [{ name: 'Contatos' }, { name: 'Usuários' }, { name: 'Vazia' }],
  paths: {
    '/users': { get: operation('listUsers', 'Usuários') },
    '/contacts/{id}/tags': { put: operation('setContactTags', 'Contatos') },
    '/contacts': { get: operation('listContacts', 'Contatos', 'contacts:read'), post: operation('createContact', 'Contatos', 'contacts:write') },
  },
  components: {
    schemas: {
      Summary: { type: 'object', properties: { id: { type: 'string' } } },
      Contact: {
        type: 'object',
        properties: { name: { type: 'string' }, lastMessage: { anyOf: [{ $ref: '#/components/schemas/Summary' }, { type: 'null' }] } },
      },
      Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
    },
    responses: {},
    securitySchemes: {},
  },
};

describe('the API reference model', () => {
  it('groups operations by area in the tag order, token routes first, without empty areas', () => {
    const areas = referenceAreas(document);
    expect(areas.map((a) => [a.name, a.anchor, a.tokenCount])).toEqual([
      ['Contatos', 'area-contatos', 2],
      ['Usuários', 'area-usuarios', 0],
    ]);
    expect(areas[0]?.operations.map((o) => `${o.method} ${o.path} #${o.anchor}`)).toEqual([
      'GET /contacts #listcontacts',
      'POST /contacts #createcontact',
      'PUT /contacts/{id}/tags #setcontacttags',
    ]);
  });

  it('names types in pt-BR and lists the rules a value follows', () => {
    expect(typeLabel(document, { type: ['string', 'null'] })).toBe('texto ou null');
    expect(typeLabel(document, { type: 'array', items: { $ref: '#/components/schemas/Contact' } })).toBe('lista de Contact');
    expect(typeLabel(document, { anyOf: [{ type: 'integer' }, { type: 'null' }] })).toBe('inteiro ou null');
    expect(typeLabel(document, {})).toBe('qualquer JSON');
    expect(constraintsOf({ enum: ['text', 'image'], maxLength: 64, minLength: 1, default: 'text' })).toEqual([
      'um de: "text", "image"',
      'mínimo 1 caractere',
      'máximo 64 caracteres',
      'padrão: "text"',
    ]);
    expect(anchorOf('Horário de atendimento')).toBe('horario-de-atendimento');
  });

  it('opens the fields of objects, of list items and of a nullable object, each component once along a branch', () => {
    expect(fieldsOwner(document, { $ref: '#/components/schemas/Contact' }, new Set())?.name).toBe('Contact');
    expect(fieldsOwner(document, { anyOf: [{ $ref: '#/components/schemas/Summary' }, { type: 'null' }] }, new Set())?.name).toBe('Summary');
    expect(fieldsOwner(document, { type: 'array', items: { $ref: '#/components/schemas/Node' } }, new Set())?.name).toBe('Node');
    expect(fieldsOwner(document, { $ref: '#/components/schemas/Node' }, new Set(['Node']))).toBeUndefined();
    expect(fieldsOwner(document, { type: 'string' }, new Set())).toBeUndefined();
  });
});
