#if UNITY_2017_2_OR_NEWER
using System;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using UnityEngine.Networking;

namespace CommunityGaming.Client
{
    /// <summary>
    /// The transport of Unity games: UnityWebRequest, which works on every platform Unity builds for
    /// (WebGL included, where HttpClient does not). Call the client from the main thread; answers
    /// arrive there.
    /// </summary>
    public sealed class UnityWebRequestTransport : ICgsTransport
    {
        /// <summary>Seconds before a request is given up (UnityWebRequest.timeout); 0 for none.</summary>
        public int TimeoutSeconds { get; set; }

        public UnityWebRequestTransport()
        {
            TimeoutSeconds = 30;
        }

        public Task<CgsHttpResponse> SendAsync(CgsHttpRequest request, CancellationToken cancellationToken)
        {
            var web = new UnityWebRequest(request.Url, request.Method);
            web.timeout = TimeoutSeconds;
            web.downloadHandler = new DownloadHandlerBuffer();
            if (request.Body != null)
            {
                web.uploadHandler = new UploadHandlerRaw(Encoding.UTF8.GetBytes(request.Body));
                web.SetRequestHeader("Content-Type", "application/json");
            }
            foreach (var header in request.Headers) web.SetRequestHeader(header.Key, header.Value);

            var done = new TaskCompletionSource<CgsHttpResponse>();
            var cancel = cancellationToken.Register(() => web.Abort());
            var operation = web.SendWebRequest();
            operation.completed += _ =>
            {
                cancel.Dispose();
                if (cancellationToken.IsCancellationRequested) done.TrySetCanceled();
                else if (web.responseCode == 0) done.TrySetException(new Exception("request to " + request.Url + " failed: " + web.error));
                else done.TrySetResult(new CgsHttpResponse((int)web.responseCode, web.downloadHandler.text));
                web.Dispose();
            };
            return done.Task;
        }
    }
}
#endif
