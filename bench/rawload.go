package bench

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// openRaw is Open for a Spec, with a cheaper client: the generator shares the machine's cores with
// the servers it measures, and net/http's client spent about as much CPU per request as the
// server under test (a goroutine per request, and per connection a read and a write goroutine that
// every request is handed between). Here workers each own one keep-alive connection, write the
// request's bytes (prepared once per path) and read the answer with http.ReadResponse; a worker is
// added whenever a request falls due with none idle (up to 1024, as Open's bound), so a stall still
// meets a request at each due moment and every latency counts from that moment.
func openRaw(spec Spec) (Result, error) {
	u, err := url.Parse(spec.Base)
	if err != nil {
		return Result{}, err
	}
	method := cmp.Or(spec.Method, http.MethodGet)
	reqs := make([][]byte, len(spec.Paths))
	for i, p := range spec.Paths {
		s := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\n", method, p, u.Host)
		for k, v := range spec.Header {
			s += k + ": " + v + "\r\n"
		}
		reqs[i] = []byte(s + "\r\n")
	}
	type job struct {
		i  int
		at time.Time
	}
	var rec recorder
	jobs := make(chan job, 1024)
	var idle, workers atomic.Int32
	var wg sync.WaitGroup
	worker := func() {
		defer wg.Done()
		var conn net.Conn
		var br *bufio.Reader
		defer func() {
			if conn != nil {
				conn.Close()
			}
		}()
		for {
			idle.Add(1)
			j, ok := <-jobs
			idle.Add(-1)
			if !ok {
				return
			}
			status, keep, err := 0, false, error(nil)
			for try := 0; try < 2; try++ { // a connection the server closed while idle is redialed once
				if conn == nil {
					if conn, err = net.Dial("tcp", u.Host); err != nil {
						break
					}
					br = bufio.NewReaderSize(conn, 16<<10)
				}
				status, keep, err = roundTrip(conn, br, reqs[j.i%len(reqs)])
				if !keep {
					conn.Close()
					conn = nil
				}
				if err == nil {
					break
				}
			}
			rec.record(j.at, time.Since(j.at), status, spec.Want, err, method+" "+spec.Paths[j.i%len(reqs)])
		}
	}
	interval := time.Second / time.Duration(spec.Rate)
	total := int(spec.For / interval)
	start := time.Now()
	for i := range total {
		at := start.Add(time.Duration(i) * interval)
		if wait := time.Until(at); wait > 0 {
			time.Sleep(wait)
		}
		if idle.Load() == 0 && workers.Load() < 1024 {
			workers.Add(1)
			wg.Add(1)
			go worker()
		}
		jobs <- job{i, at}
	}
	close(jobs)
	wg.Wait()
	return rec.result(time.Since(start)), nil
}

// roundTrip writes one request on conn and reads its answer to the end; keep is false when the
// server closes the connection after it.
func roundTrip(conn net.Conn, br *bufio.Reader, req []byte) (status int, keep bool, err error) {
	if _, err := conn.Write(req); err != nil {
		return 0, false, err
	}
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, false, err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, !res.Close, err
}
