package dap

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// directAdapter starts the fast fake without the proxy, for the baseline.
func directAdapter(b *testing.B) *testClient {
	b.Helper()
	cmd := exec.Command(testBinary(b), AdapterArgs(fakeAdapterDir(b))...)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	return newTestClient(b, in, out)
}

func roundTrip(c *testClient) time.Duration {
	start := time.Now()
	c.call("fake/echo", nil)
	d := time.Since(start)
	c.all, c.held = c.all[:0], c.held[:0]
	return d
}

func median(times []time.Duration) time.Duration {
	slices.Sort(times)
	return times[len(times)/2]
}

// BenchmarkProxyLatency measures the median latency the proxy adds to a
// small request and its response (two hops each way instead of one),
// against the same fake adapter spoken to directly. The two paths
// alternate, so load on the machine weighs on both alike. Target: ≤ 100 µs.
func BenchmarkProxyLatency(b *testing.B) {
	direct := directAdapter(b)
	direct.call("initialize", nil)
	s := startSession(b, fastFakeOptions(b))
	s.client.initialize()
	for range 200 { // warm up both paths
		roundTrip(direct)
		roundTrip(s.client)
	}
	viaProxy := make([]time.Duration, 0, b.N)
	baseline := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		viaProxy = append(viaProxy, roundTrip(s.client))
		baseline = append(baseline, roundTrip(direct))
	}
	b.StopTimer()
	added := make([]time.Duration, b.N)
	for i := range added {
		added[i] = viaProxy[i] - baseline[i]
	}
	b.ReportMetric(float64(median(viaProxy).Nanoseconds())/1e3, "µs-median-via-proxy")
	b.ReportMetric(float64(median(baseline).Nanoseconds())/1e3, "µs-median-direct")
	b.ReportMetric(float64(median(added).Nanoseconds())/1e3, "µs-median-added")
}

// BenchmarkProxyThroughput measures how many small messages per second the
// proxy relays: the adapter sends a burst of events, the client reads them
// all. Target: ≥ 20,000 messages/s.
func BenchmarkProxyThroughput(b *testing.B) {
	const burst = 5000
	s := startSession(b, fastFakeOptions(b))
	s.client.initialize()
	s.client.call("fake/flood", map[string]any{"count": 100}) // warm up

	b.ResetTimer()
	start := time.Now()
	for range b.N {
		s.client.call("fake/flood", map[string]any{"count": burst})
		s.client.all, s.client.held = s.client.all[:0], s.client.held[:0]
	}
	elapsed := time.Since(start)
	b.ReportMetric(float64(b.N*(burst+2))/elapsed.Seconds(), "msgs/s")
}

// BenchmarkPeek measures the envelope read of every message the proxy
// relays: a small event, and a 10 MiB source response (code with quotes
// and line breaks escaped) whose body is skipped.
func BenchmarkPeek(b *testing.B) {
	small := []byte(`{"seq":12,"type":"event","event":"output","body":{"category":"console","output":"Точка останова достигнута\n"}}`)
	big := []byte(`{"seq":13,"type":"response","request_seq":7,"success":true,"command":"source","body":{"content":"` +
		strings.Repeat(`    Сообщить(\"Значение: \" + Строка(Счётчик));\n`, 10<<20/56) + `","lines":[1,2,3]}}`)
	for _, c := range []struct {
		name string
		body []byte
	}{{"small", small}, {"10MiB", big}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				if _, err := peek(c.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
