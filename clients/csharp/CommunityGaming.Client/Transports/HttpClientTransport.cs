using System.Net.Http;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace CommunityGaming.Client
{
    /// <summary>The transport of .NET and Mono programs: System.Net.Http's HttpClient (share one per process).</summary>
    public sealed class HttpClientTransport : ICgsTransport
    {
        private readonly HttpClient http;

        public HttpClientTransport(HttpClient http = null)
        {
            this.http = http ?? new HttpClient();
        }

        public async Task<CgsHttpResponse> SendAsync(CgsHttpRequest request, CancellationToken cancellationToken)
        {
            using (var message = new HttpRequestMessage(new HttpMethod(request.Method), request.Url))
            {
                if (request.Body != null) message.Content = new StringContent(request.Body, Encoding.UTF8, "application/json");
                foreach (var header in request.Headers) message.Headers.TryAddWithoutValidation(header.Key, header.Value);
                using (var response = await http.SendAsync(message, cancellationToken).ConfigureAwait(false))
                {
                    var body = response.Content == null ? "" : await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                    return new CgsHttpResponse((int)response.StatusCode, body);
                }
            }
        }
    }
}
