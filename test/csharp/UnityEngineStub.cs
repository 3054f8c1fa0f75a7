// The members of UnityEngine's networking API that UnityWebRequestTransport uses, with Unity's own
// names and signatures (docs.unity3d.com, UnityEngine.Networking), so that Mono's compiler checks the
// transport here; nothing runs against it (Unity is not installed on these machines). Compiled
// only with the transport, by test/csharp/csharp-client.csharp-spec.ts.
using System;

namespace UnityEngine
{
    public class AsyncOperation
    {
        public event Action<AsyncOperation> completed { add { } remove { } }
    }
}

namespace UnityEngine.Networking
{
    public class UploadHandler : IDisposable
    {
        public void Dispose() { }
    }

    public sealed class UploadHandlerRaw : UploadHandler
    {
        public UploadHandlerRaw(byte[] data) { }
    }

    public class DownloadHandler : IDisposable
    {
        public string text { get { throw new NotSupportedException(); } }
        public void Dispose() { }
    }

    public sealed class DownloadHandlerBuffer : DownloadHandler
    {
    }

    public sealed class UnityWebRequestAsyncOperation : AsyncOperation
    {
    }

    public sealed class UnityWebRequest : IDisposable
    {
        public UnityWebRequest(string url, string method) { }
        public int timeout { get; set; }
        public UploadHandler uploadHandler { get; set; }
        public DownloadHandler downloadHandler { get; set; }
        public long responseCode { get { throw new NotSupportedException(); } }
        public string error { get { throw new NotSupportedException(); } }
        public void SetRequestHeader(string name, string value) { }
        public UnityWebRequestAsyncOperation SendWebRequest() { throw new NotSupportedException(); }
        public void Abort() { }
        public void Dispose() { }
    }
}
