import { camel, csharpClientFiles, csType, pascal, type OpenApiDocument } from './csharp-client.js';

describe('the C# client generator', () => {
  it('names members in C# style, and parameters named as keywords with @', () => {
    expect(pascal('providerAZkLogin')).toBe('ProviderAZkLogin');
    expect(pascal('referrer-handle_x')).toBe('ReferrerHandleX');
    expect(pascal('2fa')).toBe('_2fa');
    expect(camel('eventId')).toBe('eventId');
    expect(camel('event')).toBe('@event');
    expect(camel('params')).toBe('@params');
  });

  it('maps schemas to C# types: optional value types nullable, enums as strings, free objects as JObject', () => {
    const schemas = { Kind: { type: 'string', enum: ['a', 'b'] }, Thing: { type: 'object', properties: {} } };
    expect(csType({ type: 'number' }, schemas, false)).toBe('double');
    expect(csType({ type: 'number' }, schemas, true)).toBe('double?');
    expect(csType({ type: 'integer', nullable: true }, schemas, false)).toBe('long?');
    expect(csType({ type: 'boolean' }, schemas, true)).toBe('bool?');
    expect(csType({ type: 'string' }, schemas, true)).toBe('string');
    expect(csType({ $ref: '#/components/schemas/Kind' }, schemas, false)).toBe('string');
    expect(csType({ $ref: '#/components/schemas/Thing' }, schemas, false)).toBe('Thing');
    expect(csType({ allOf: [{ $ref: '#/components/schemas/Thing' }], nullable: true }, schemas, false)).toBe('Thing');
    expect(csType({ type: 'array', items: { type: 'number' } }, schemas, false)).toBe('List<double>');
    expect(csType({ type: 'object', additionalProperties: { type: 'string' } }, schemas, false)).toBe('Dictionary<string, string>');
    expect(csType({ type: 'object', additionalProperties: true }, schemas, false)).toBe('JObject');
    expect(csType({ oneOf: [{ type: 'string' }, { type: 'number' }] }, schemas, false)).toBe('JToken');
  });

  const doc = (paths: OpenApiDocument['paths']): OpenApiDocument => ({
    paths,
    components: {
      schemas: {
        ErrorBodyDto: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
        ThingDto: { type: 'object', properties: { id: { type: 'string' }, count: { type: 'number' } }, required: ['id'] },
      },
    },
  });
  const json = (ref: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });

  it('writes a method per player operation, path values escaped, queries as the service reads them; leaves out management, streams and redirects', () => {
    const [[modelsPath, models], [apiPath, api]] = csharpClientFiles(
      doc({
        '/v1/things/{thingId}': {
          get: {
            operationId: 'getThing',
            parameters: [
              { name: 'thingId', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'tags', in: 'query', required: true, schema: { type: 'array', items: { type: 'string' } } },
              { name: 'page', in: 'query', schema: { type: 'number' } },
              { name: 'X-Tenant-Id', in: 'header', schema: { type: 'string' } },
            ],
            responses: { 200: json('ThingDto') },
          },
        },
        '/v1/things': { post: { operationId: 'forgetThings', responses: { 204: {} } } },
        '/v1/admin/things': { get: { operationId: 'adminThings', responses: { 200: json('ThingDto') } } },
        '/v1/things/stream': { get: { operationId: 'thingStream', responses: { 200: { content: { 'text/event-stream': {} } } } } },
        '/health/ready': { get: { operationId: 'ready', responses: { 200: json('ThingDto') } } },
      }),
    );
    expect(modelsPath).toBe('clients/csharp/CommunityGaming.Client/Generated/Models.cs');
    expect(models).toContain('[JsonProperty("count")]\n        public double? Count { get; set; }');
    expect(models).toContain('[JsonProperty("id")]\n        public string Id { get; set; }');
    expect(apiPath).toBe('clients/csharp/CommunityGaming.Client/Generated/CgsApi.cs');
    expect(api).toContain(
      'public async Task<ThingDto> GetThingAsync(string thingId, IEnumerable<string> tags, double? page = null, CancellationToken cancellationToken = default(CancellationToken))',
    );
    expect(api).toContain('var requestPath = "/v1/things/" + CgsQuery.Escape(thingId);');
    expect(api).toContain('requestQuery.AddAll("tags", tags, true);');
    expect(api).toContain('requestQuery.Add("page", page);');
    expect(api).toContain('public async Task ForgetThingsAsync(CancellationToken cancellationToken = default(CancellationToken))');
    expect(api).not.toMatch(/AdminThings|ReadyAsync|ThingStreamAsync/);
    expect(api).toContain('//   GET /v1/things/stream (answers text/event-stream)');
  });

  it("refuses a parameter that would take the name of a generated method's variable", () => {
    expect(() =>
      csharpClientFiles(
        doc({
          '/v1/x': {
            get: {
              operationId: 'x',
              parameters: [{ name: 'requestQuery', in: 'query', schema: { type: 'string' } }],
              responses: { 204: {} },
            },
          },
        }),
      ),
    ).toThrow(/requestQuery/);
  });
});
