// The hand-written half of the C# client: the session (kept, refreshed, ended), the error body as an
// exception, query strings as the service reads them. The API's methods are generated
// (Generated/CgsApi.cs, from openapi.json by `npm run openapi`).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace CommunityGaming.Client
{
    /// <summary>The two tokens of a session: the session token (10 minutes) and the refresh token (30 days).</summary>
    public sealed class CgsSession
    {
        public CgsSession(string sessionToken, string refreshToken)
        {
            SessionToken = sessionToken;
            RefreshToken = refreshToken;
        }

        public string SessionToken { get; private set; }
        public string RefreshToken { get; private set; }
    }

    /// <summary>An error answer of the service, in its error body.</summary>
    public sealed class CgsApiException : Exception
    {
        public CgsApiException(int status, ErrorBodyDto body)
            : base(status + " " + body.Error + ": " + body.Detail)
        {
            Status = status;
            Body = body;
        }

        public int Status { get; private set; }
        /// <summary>The interface's identifier (`generic_client_error`, `GENERIC_UNAUTHORIZED`, `SESSION_TOKEN_EXPIRED`, ...): compare this.</summary>
        public string Identifier { get { return Body.Message; } }
        /// <summary>The precise case (`event_full`, `validation_failed`, ...).</summary>
        public string Code { get { return Body.Error; } }
        /// <summary>For people; its wording may change.</summary>
        public string Detail { get { return Body.Detail; } }
        public string RequestId { get { return Body.RequestId; } }
        public ErrorBodyDto Body { get; private set; }
    }

    /// <summary>A successful answer: its status and JSON body.</summary>
    public sealed class CgsAnswer
    {
        internal CgsAnswer(int status, string body)
        {
            Status = status;
            Body = body;
        }

        public int Status { get; private set; }
        public string Body { get; private set; }

        public T As<T>()
        {
            return string.IsNullOrEmpty(Body) ? default(T) : JsonConvert.DeserializeObject<T>(Body);
        }
    }

    /// <summary>
    /// The client: `Api` has a method per operation of the player API. It keeps a login's session
    /// (and raises `SessionChanged`, to store it), sends a request refused with
    /// `SESSION_TOKEN_EXPIRED` again after one refresh (one refresh however many requests were refused
    /// at once), and ends the session when the refresh is refused (`SessionChanged` with null: log in
    /// again).
    /// </summary>
    public sealed class CgsClient
    {
        private static readonly Regex SessionRoutes = new Regex(
            "^/v1/user/(auth/[^/]+/(login|zklogin)|auth/refresh-session|register/password)$",
            RegexOptions.CultureInvariant);
        private static readonly JsonSerializerSettings Outgoing = new JsonSerializerSettings { NullValueHandling = NullValueHandling.Ignore };

        private readonly string baseUrl;
        private readonly ICgsTransport transport;
        private readonly object gate = new object();
        private CgsSession session;
        private Task<bool> refreshing;

        /// <param name="baseUrl">The service, e.g. http://localhost:3000.</param>
        /// <param name="transport">`HttpClientTransport` (.NET, Mono) or `UnityWebRequestTransport` (Unity).</param>
        /// <param name="tenantId">Tenant id or slug, sent as X-Tenant-Id (optional with a single-tenant deployment).</param>
        /// <param name="session">A session stored earlier, if any.</param>
        public CgsClient(string baseUrl, ICgsTransport transport, string tenantId = null, CgsSession session = null)
        {
            this.baseUrl = baseUrl.TrimEnd('/');
            this.transport = transport;
            TenantId = tenantId;
            this.session = session;
            Api = new CgsApi(this);
        }

        public CgsApi Api { get; private set; }
        public string TenantId { get; private set; }

        /// <summary>The current session, or null. Setting it does not raise `SessionChanged`.</summary>
        public CgsSession Session
        {
            get { lock (gate) return session; }
            set { lock (gate) session = value; }
        }

        /// <summary>Raised with the new session after a login, a registration or a refresh; with null after a logout or a refused refresh.</summary>
        public event Action<CgsSession> SessionChanged;

        /// <summary>Sends a request to `path` (with `query`, and `body` as JSON); throws `CgsApiException` on an error answer.</summary>
        public async Task<CgsAnswer> SendAsync(string method, string path, CgsQuery query, object body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var url = baseUrl + path + (query == null ? "" : query.ToString());
            var json = body == null ? null : body is JToken ? ((JToken)body).ToString(Formatting.None) : JsonConvert.SerializeObject(body, Outgoing);
            var sent = Session;
            var response = await transport.SendAsync(Request(method, url, json, sent), cancellationToken).ConfigureAwait(false);
            if (sent != null && IsExpiredToken(response) && await RefreshAfter(sent.SessionToken).ConfigureAwait(false))
                response = await transport.SendAsync(Request(method, url, json, Session), cancellationToken).ConfigureAwait(false);
            if (response.Status < 200 || response.Status >= 300) throw Error(response);

            if (SessionRoutes.IsMatch(path))
            {
                var tokens = JObject.Parse(response.Body);
                var fresh = (string)tokens["sessionToken"];
                var refresh = (string)tokens["refreshToken"];
                if (fresh != null) SetSession(new CgsSession(fresh, refresh ?? (Session == null ? null : Session.RefreshToken)));
            }
            else if (path == "/v1/user/auth/logout") SetSession(null);
            return new CgsAnswer(response.Status, response.Body);
        }

        private CgsHttpRequest Request(string method, string url, string json, CgsSession with)
        {
            var headers = new Dictionary<string, string> { { "Accept", "application/json" } };
            if (TenantId != null) headers["X-Tenant-Id"] = TenantId;
            if (with != null) headers["Authorization"] = "Bearer " + with.SessionToken;
            return new CgsHttpRequest(method, url, headers, json);
        }

        private static bool IsExpiredToken(CgsHttpResponse response)
        {
            if (response.Status != 401) return false;
            var body = ParseError(response.Body);
            return body != null && body.Message == "SESSION_TOKEN_EXPIRED";
        }

        private static ErrorBodyDto ParseError(string text)
        {
            try
            {
                return JsonConvert.DeserializeObject<ErrorBodyDto>(text);
            }
            catch (JsonException)
            {
                return null;
            }
        }

        private static CgsApiException Error(CgsHttpResponse response)
        {
            var body = ParseError(response.Body);
            if (body == null || body.Message == null)
                body = new ErrorBodyDto { Code = 0, Message = "internal_error", Error = "internal_error", Detail = "HTTP " + response.Status + " without an error body" };
            return new CgsApiException(response.Status, body);
        }

        private void SetSession(CgsSession next)
        {
            lock (gate) session = next;
            var changed = SessionChanged;
            if (changed != null) changed(next);
        }

        /// <summary>
        /// Refreshes the session whose token `stale` was refused, once: a request refused with a token
        /// already replaced only takes the new one; refusals meanwhile wait for the same refresh.
        /// </summary>
        private Task<bool> RefreshAfter(string stale)
        {
            lock (gate)
            {
                if (session != null && session.SessionToken != stale) return Task.FromResult(true);
                if (refreshing == null) refreshing = RefreshNow();
                return refreshing;
            }
        }

        private async Task<bool> RefreshNow()
        {
            await Task.Yield(); // so that `refreshing` is set before this can finish
            try
            {
                var current = Session;
                if (current == null || current.RefreshToken == null) return false;
                var json = JsonConvert.SerializeObject(new RefreshSessionDto { RefreshToken = current.RefreshToken });
                var response = await transport.SendAsync(Request("POST", baseUrl + "/v1/user/auth/refresh-session", json, null), CancellationToken.None).ConfigureAwait(false);
                if (response.Status == 200)
                {
                    var fresh = JsonConvert.DeserializeObject<RefreshResultDto>(response.Body);
                    SetSession(new CgsSession(fresh.SessionToken, current.RefreshToken));
                    return true;
                }
                // Refused (expired, revoked): the session is over. Anything else (503, a network
                // error) leaves it as it was, for the next request to try again.
                if (response.Status == 401) SetSession(null);
                return false;
            }
            finally
            {
                lock (gate) refreshing = null;
            }
        }
    }

    /// <summary>The player API's methods (generated in Generated/CgsApi.cs).</summary>
    public sealed partial class CgsApi
    {
        internal CgsApi(CgsClient client)
        {
            Client = client;
        }

        public CgsClient Client { get; private set; }
    }

    /// <summary>
    /// A query string as the service reads it: an array repeats its name (`tags=a&amp;tags=b`), an
    /// empty required array is sent empty (`tags=`, "no filter"), an object is a deepObject
    /// (`filter[status]=active`), null is left out.
    /// </summary>
    public sealed class CgsQuery
    {
        private readonly StringBuilder text = new StringBuilder();

        public static string Escape(string value)
        {
            return Uri.EscapeDataString(value ?? "");
        }

        private void Append(string name, string value)
        {
            text.Append(text.Length == 0 ? '?' : '&').Append(Escape(name)).Append('=').Append(Escape(value));
        }

        public void Add(string name, string value)
        {
            if (value != null) Append(name, value);
        }

        public void Add(string name, long? value)
        {
            if (value.HasValue) Append(name, value.Value.ToString(CultureInfo.InvariantCulture));
        }

        public void Add(string name, double? value)
        {
            if (value.HasValue) Append(name, value.Value.ToString("R", CultureInfo.InvariantCulture));
        }

        public void Add(string name, bool? value)
        {
            if (value.HasValue) Append(name, value.Value ? "true" : "false");
        }

        public void AddAll<T>(string name, IEnumerable<T> values, bool required)
        {
            var any = false;
            if (values != null)
                foreach (var v in values)
                {
                    any = true;
                    Append(name, Convert.ToString(v, CultureInfo.InvariantCulture));
                }
            if (!any && required) Append(name, "");
        }

        public void AddObject(string name, object value)
        {
            if (value == null) return;
            foreach (var property in JObject.FromObject(value, JsonSerializer.Create(new JsonSerializerSettings { NullValueHandling = NullValueHandling.Ignore })).Properties())
            {
                var key = name + "[" + property.Name + "]";
                if (property.Value.Type == JTokenType.Array)
                    foreach (var v in property.Value) Append(key, Scalar(v));
                else Append(key, Scalar(property.Value));
            }
        }

        private static string Scalar(JToken v)
        {
            return v.Type == JTokenType.String ? (string)v : v.ToString(Formatting.None);
        }

        public override string ToString()
        {
            return text.ToString();
        }
    }
}
