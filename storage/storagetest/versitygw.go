// Package storagetest starts a real S3-compatible server for tests: versitygw (it checks SigV4
// signatures, so presigned URLs are proven for real), on a random loopback port over a temporary
// directory, with a fresh bucket. Without the binary the test is skipped with a message — except
// under CI (CI set), where .ci/run installs it and a missing binary fails the test.
package storagetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/crier/crier/storage"
)

// VersityVersion is the versitygw release .ci/run installs.
const VersityVersion = "v1.8.0"

// S3Server is a running versitygw with one bucket.
type S3Server struct {
	Endpoint  string
	Region    string
	Bucket    string
	AccessKey string
	SecretKey string
}

// URL is the server's bucket as a STORAGE_URL.
func (s S3Server) URL() string {
	return fmt.Sprintf("s3://%s?endpoint=%s&region=%s", s.Bucket, s.Endpoint, s.Region)
}

// Config is the server's bucket as an S3Config.
func (s S3Server) Config() storage.S3Config {
	return storage.S3Config{Bucket: s.Bucket, Endpoint: s.Endpoint, Region: s.Region, AccessKey: s.AccessKey, SecretKey: s.SecretKey}
}

func binary() string {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	for _, dir := range []string{os.Getenv("GOBIN"), filepath.Join(os.Getenv("GOPATH"), "bin"), filepath.Join(os.Getenv("HOME"), "go", "bin")} {
		if dir == "" {
			continue
		}
		if p := filepath.Join(dir, "versitygw"); fileExists(p) {
			return p
		}
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		if p := filepath.Join(string(trimNL(out)), "bin", "versitygw"); fileExists(p) {
			return p
		}
	}
	return ""
}

func fileExists(p string) bool { fi, err := os.Stat(p); return err == nil && !fi.IsDir() }

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// StartS3 starts versitygw for the test (stopped when it ends) and creates a bucket.
func StartS3(t testing.TB) S3Server {
	t.Helper()
	bin := binary()
	if bin == "" {
		msg := "versitygw is not installed: go install github.com/versity/versitygw/cmd/versitygw@" + VersityVersion + " (≈3 min) to run the S3 backend tests"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := S3Server{Endpoint: "http://" + addr, Region: "us-east-1", Bucket: "crier-" + randomHex(4),
		AccessKey: "crier" + randomHex(4), SecretKey: randomHex(16)}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--port", addr, "posix", t.TempDir())
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+srv.AccessKey, "ROOT_SECRET_KEY="+srv.SecretKey)
	logf, err := os.CreateTemp(t.TempDir(), "versitygw-*.log")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("storagetest: start versitygw: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			if b, err := os.ReadFile(logf.Name()); err == nil {
				t.Logf("versitygw log:\n%s", b)
			}
		}
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logf.Name())
			t.Fatalf("storagetest: versitygw did not listen on %s: %s", addr, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, err := storage.NewS3(ctx, srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &srv.Bucket}); err != nil {
		t.Fatalf("storagetest: create bucket: %v", err)
	}
	return srv
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
