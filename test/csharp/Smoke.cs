// A small game client in C#, written against the C# client alone, run by
// test/csharp/csharp-client.csharp-spec.ts against the running service: it logs in, takes over a
// session whose token has expired and makes ten requests at once (one refresh), buys a listing,
// polls its notifications until the purchase's arrives, and reads a typed error. It prints what it
// saw as one JSON line for the test to check.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CommunityGaming.Client;
using Newtonsoft.Json;

public static class Smoke
{
    /// <summary>The HttpClient transport, counting what goes out by method and path.</summary>
    private sealed class Counting : ICgsTransport
    {
        private readonly ICgsTransport inner = new HttpClientTransport();
        public readonly List<string> Sent = new List<string>();

        public Task<CgsHttpResponse> SendAsync(CgsHttpRequest request, CancellationToken cancellationToken)
        {
            lock (Sent) Sent.Add(request.Method + " " + new Uri(request.Url).AbsolutePath);
            return inner.SendAsync(request, cancellationToken);
        }
    }

    private static string Env(string name)
    {
        var value = Environment.GetEnvironmentVariable(name);
        if (string.IsNullOrEmpty(value)) throw new InvalidOperationException(name + " is not set");
        return value;
    }

    public static int Main()
    {
        try
        {
            Run().GetAwaiter().GetResult();
            return 0;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine(e);
            return 1;
        }
    }

    private static async Task Run()
    {
        var transport = new Counting();
        var client = new CgsClient(Env("CGS_BASE_URL"), transport, Env("CGS_TENANT"));
        var changes = new List<string>();
        client.SessionChanged += s => { lock (changes) changes.Add(s == null ? "ended" : "session"); };

        var login = await client.Api.PasswordLoginAsync(new PasswordLoginDto { Username = Env("CGS_USERNAME"), Password = Env("CGS_PASSWORD") });
        var kept = client.Session != null && client.Session.SessionToken == login.SessionToken;

        // A session whose token expired (it began 11 minutes ago): ten requests at once.
        client.Session = new CgsSession(Env("CGS_EXPIRED_SESSION_TOKEN"), Env("CGS_EXPIRED_REFRESH_TOKEN"));
        transport.Sent.Clear();
        var sessions = await Task.WhenAll(Enumerable.Range(0, 10).Select(_ => client.Api.CurrentSessionAsync()));
        var refreshes = transport.Sent.Count(s => s == "POST /v1/user/auth/refresh-session");
        var sends = transport.Sent.Count(s => s == "GET /v1/user/auth/session");

        var community = Env("CGS_COMMUNITY");
        var purchase = await client.Api.PurchaseStoreListingAsync(Env("CGS_LISTING_ID"), new PurchaseBodyDto { Nonce = "smoke-" + Guid.NewGuid().ToString("N") });
        var balance = await client.Api.GetStoreBalanceAsync(community);

        // The poll: the purchase's notification, within 10 s.
        var deadline = DateTime.UtcNow.AddSeconds(10);
        NotificationPageDto page;
        do
        {
            page = await client.Api.ListNotificationsAsync(community, 1, 20);
            if (page.Items.Count > 0) break;
            await Task.Delay(200);
        } while (DateTime.UtcNow < deadline);

        string identifier = null, code = null;
        try
        {
            await client.Api.JoinCommunityAsync("no-such-community", "");
        }
        catch (CgsApiException e)
        {
            identifier = e.Identifier;
            code = e.Status + " " + e.Code;
        }

        Console.WriteLine(JsonConvert.SerializeObject(new
        {
            userId = login.UserId,
            kept,
            sessionUsers = sessions.Select(s => s.UserId).Distinct().ToArray(),
            refreshes,
            sends,
            changes,
            purchase = new { purchase.Id, purchase.ListingId },
            balance = balance.Resources.ToDictionary(r => r.Slug, r => r.Balance),
            notifications = page.Items.Select(n => n.Type).ToArray(),
            error = new { identifier, code },
        }));
    }
}
