// The conformance suite's prompts, resources and completions (their names and URIs are fixed by the suite),
// served through the production binding's surface interface (src/mcp/surface.ts) like the real ones.
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  UriTemplate,
} from '@modelcontextprotocol/server';
import { completionOf, type McpSurface } from '../../src/mcp/surface.ts';

// A 1×1 transparent PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const template = new UriTemplate('test://template/{id}/data');

const prompts = [
  { name: 'test_simple_prompt', description: 'A simple prompt without arguments' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First argument', required: true },
      { name: 'arg2', description: 'Second argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'The resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image' },
];

export const conformanceSurface: McpSurface = {
  listPrompts: () => prompts,
  async getPrompt(_state, name, args) {
    const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
    switch (name) {
      case 'test_simple_prompt':
        return { messages: [text('This is a simple prompt for testing.')] };
      case 'test_prompt_with_arguments':
        return { messages: [text(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`)] };
      case 'test_prompt_with_embedded_resource':
        return {
          messages: [
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: {
                  uri: args.resourceUri ?? 'test://example-resource',
                  mimeType: 'text/plain',
                  text: 'Embedded resource content for testing.',
                },
              },
            },
            text('Please process the embedded resource above.'),
          ],
        };
      case 'test_prompt_with_image':
        return {
          messages: [
            { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
            text('Please analyze the image above.'),
          ],
        };
      default:
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No prompt named ${name}`);
    }
  },
  listResources: async () => [
    {
      uri: 'test://static-text',
      name: 'static-text',
      description: 'A static text resource',
      mimeType: 'text/plain',
    },
    {
      uri: 'test://static-binary',
      name: 'static-binary',
      description: 'A static binary resource',
      mimeType: 'image/png',
    },
  ],
  listResourceTemplates: () => [
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      description: 'Data by id',
      mimeType: 'application/json',
    },
  ],
  async readResource(_state, uri) {
    if (uri === 'test://static-text') {
      return {
        contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      };
    }
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    const match = template.match(uri);
    if (match !== null) {
      const id = String(match.id);
      return {
        contents: [
          {
            uri,
            mimeType: 'application/json',
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
          },
        ],
      };
    }
    throw new ResourceNotFoundError(uri);
  },
  async complete(_state, { ref, argument }) {
    if (ref.type === 'ref/prompt' && ref.name === 'test_prompt_with_arguments') {
      return completionOf(['test', 'testing', 'tested', 'other'], argument.value);
    }
    return completionOf([], argument.value);
  },
};
