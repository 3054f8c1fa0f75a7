using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace CommunityGaming.Client
{
    /// <summary>A request as the client sends it: the transport only carries it.</summary>
    public sealed class CgsHttpRequest
    {
        public CgsHttpRequest(string method, string url, IDictionary<string, string> headers, string body)
        {
            Method = method;
            Url = url;
            Headers = headers;
            Body = body;
        }

        public string Method { get; private set; }
        public string Url { get; private set; }
        public IDictionary<string, string> Headers { get; private set; }
        /// <summary>JSON, or null for no body.</summary>
        public string Body { get; private set; }
    }

    public sealed class CgsHttpResponse
    {
        public CgsHttpResponse(int status, string body)
        {
            Status = status;
            Body = body ?? "";
        }

        public int Status { get; private set; }
        public string Body { get; private set; }
    }

    /// <summary>How requests travel: `HttpClientTransport` (.NET, Mono), `UnityWebRequestTransport` (Unity), or your own.</summary>
    public interface ICgsTransport
    {
        Task<CgsHttpResponse> SendAsync(CgsHttpRequest request, CancellationToken cancellationToken);
    }
}
