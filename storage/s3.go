package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3Config names a bucket of an S3-compatible service.
type S3Config struct {
	Bucket   string
	Endpoint string // e.g. http://127.0.0.1:7070; empty: AWS's regional endpoint
	Region   string // default us-east-1
	// AccessKey and SecretKey; empty: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY of the process.
	AccessKey, SecretKey string
}

// S3 is the S3-compatible backend (path-style addressing, SigV4 presigned URLs).
type S3 struct {
	bucket   string
	endpoint *url.URL
	client   *s3.Client
	presign  *s3.PresignClient
}

// NewS3 builds the S3 backend. It does not contact the service.
func NewS3(_ context.Context, c S3Config) (*S3, error) {
	if c.Bucket == "" {
		return nil, errors.New("storage: s3 needs a bucket")
	}
	if c.Region == "" {
		c.Region = "us-east-1"
	}
	if c.AccessKey == "" {
		c.AccessKey, c.SecretKey = os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	}
	if c.AccessKey == "" || c.SecretKey == "" {
		return nil, errors.New("storage: s3 needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	creds := aws.Credentials{AccessKeyID: c.AccessKey, SecretAccessKey: c.SecretKey, Source: "crier"}
	cfg := aws.Config{
		Region: c.Region,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return creds, nil
		}),
		// Checksums only where S3 requires them: presigned PUTs then stay plain (no checksum header
		// the browser would have to send) and S3-compatible servers need not support CRC32 trailers.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		HTTPClient:                 &http.Client{Timeout: 10 * time.Minute},
	}
	s := &S3{bucket: c.Bucket}
	var endpoint *string
	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("storage: s3 endpoint must be an http(s) URL, got %q", c.Endpoint)
		}
		s.endpoint, endpoint = u, aws.String(strings.TrimRight(c.Endpoint, "/"))
	} else {
		s.endpoint = &url.URL{Scheme: "https", Host: "s3." + c.Region + ".amazonaws.com"}
	}
	s.client = s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.UsePathStyle = true
		o.BaseEndpoint = endpoint
	})
	s.presign = s3.NewPresignClient(s.client)
	return s, nil
}

// Client is the SDK client (tests create buckets with it).
func (s *S3) Client() *s3.Client { return s.client }

func notFound(err error) bool {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		switch ae.ErrorCode() {
		case "NoSuchKey", "NotFound", "NoSuchUpload":
			return true
		}
	}
	var nf *types.NoSuchKey
	return errors.As(err, &nf)
}

// Put implements Storage.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	in := &s3.PutObjectInput{Bucket: &s.bucket, Key: &key, Body: r, ContentType: nilIfEmpty(contentType)}
	if size >= 0 {
		in.ContentLength = aws.Int64(size)
	}
	var opts []func(*s3.Options)
	if _, ok := r.(io.ReadSeeker); !ok {
		// A stream cannot be hashed before sending: sign it as UNSIGNED-PAYLOAD.
		opts = append(opts, s3.WithAPIOptions(v4.SwapComputePayloadSHA256ForUnsignedPayloadMiddleware))
	}
	if _, err := s.client.PutObject(ctx, in, opts...); err != nil {
		return fmt.Errorf("storage: s3 put %s: %w", key, err)
	}
	return nil
}

// Size implements Storage.
func (s *S3) Size(ctx context.Context, key string) (int64, error) {
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	if notFound(err) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("storage: s3 head %s: %w", key, err)
	}
	return aws.ToInt64(out.ContentLength), nil
}

// GetRange implements Storage.
func (s *S3) GetRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	in := &s3.GetObjectInput{Bucket: &s.bucket, Key: &key}
	switch {
	case length == 0:
		return io.NopCloser(strings.NewReader("")), nil
	case length > 0:
		in.Range = aws.String(fmt.Sprintf("bytes=%d-%d", offset, offset+length-1))
	case offset > 0:
		in.Range = aws.String(fmt.Sprintf("bytes=%d-", offset))
	}
	out, err := s.client.GetObject(ctx, in)
	if notFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("storage: s3 get %s: %w", key, err)
	}
	return out.Body, nil
}

// Delete implements Storage.
func (s *S3) Delete(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil && !notFound(err) {
		return fmt.Errorf("storage: s3 delete %s: %w", key, err)
	}
	return nil
}

func clampTTL(ttl time.Duration) time.Duration {
	if ttl <= 0 || ttl > MaxPresignTTL {
		return MaxPresignTTL
	}
	return ttl
}

// PresignPut implements Storage.
func (s *S3) PresignPut(ctx context.Context, key string, ttl time.Duration) (string, error) {
	req, err := s.presign.PresignPutObject(ctx, &s3.PutObjectInput{Bucket: &s.bucket, Key: &key}, s3.WithPresignExpires(clampTTL(ttl)))
	if err != nil {
		return "", fmt.Errorf("storage: s3 presign put %s: %w", key, err)
	}
	return req.URL, nil
}

// PresignGet implements Storage.
func (s *S3) PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error) {
	req, err := s.presign.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key}, s3.WithPresignExpires(clampTTL(ttl)))
	if err != nil {
		return "", fmt.Errorf("storage: s3 presign get %s: %w", key, err)
	}
	return req.URL, nil
}

// KeyOf implements Storage: the key of ENDPOINT/BUCKET/<key>?….
func (s *S3) KeyOf(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host != s.endpoint.Host {
		return "", false
	}
	key, ok := strings.CutPrefix(u.Path, strings.TrimRight(s.endpoint.Path, "/")+"/"+s.bucket+"/")
	if !ok || !ValidKey(key) {
		return "", false
	}
	return key, true
}

// CreateMultipart implements Storage.
func (s *S3) CreateMultipart(ctx context.Context, key, contentType string) (string, error) {
	out, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &s.bucket, Key: &key, ContentType: nilIfEmpty(contentType)})
	if err != nil {
		return "", fmt.Errorf("storage: s3 create multipart %s: %w", key, err)
	}
	return aws.ToString(out.UploadId), nil
}

// PresignPart implements Storage.
func (s *S3) PresignPart(ctx context.Context, key, uploadID string, part int, ttl time.Duration) (string, error) {
	req, err := s.presign.PresignUploadPart(ctx, &s3.UploadPartInput{Bucket: &s.bucket, Key: &key, UploadId: &uploadID, PartNumber: aws.Int32(int32(part))},
		s3.WithPresignExpires(clampTTL(ttl)))
	if err != nil {
		return "", fmt.Errorf("storage: s3 presign part %s: %w", key, err)
	}
	return req.URL, nil
}

// CompleteMultipart implements Storage.
func (s *S3) CompleteMultipart(ctx context.Context, key, uploadID string, parts []Part) error {
	done := make([]types.CompletedPart, len(parts))
	for i, p := range parts {
		etag := p.ETag
		if !strings.HasPrefix(etag, `"`) {
			etag = `"` + etag + `"`
		}
		done[i] = types.CompletedPart{PartNumber: aws.Int32(int32(p.Number)), ETag: aws.String(etag)}
	}
	_, err := s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: &s.bucket, Key: &key, UploadId: &uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: done}})
	var ae smithy.APIError
	if errors.As(err, &ae) {
		switch ae.ErrorCode() {
		case "InvalidPart", "InvalidPartOrder", "EntityTooSmall", "MalformedXML":
			return &PartError{Msg: ae.ErrorMessage()}
		case "NoSuchUpload":
			return ErrNotFound
		}
	}
	if err != nil {
		return fmt.Errorf("storage: s3 complete multipart %s: %w", key, err)
	}
	return nil
}

// AbortMultipart implements Storage.
func (s *S3) AbortMultipart(ctx context.Context, key, uploadID string) error {
	_, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: &key, UploadId: &uploadID})
	if err != nil && !notFound(err) {
		return fmt.Errorf("storage: s3 abort multipart %s: %w", key, err)
	}
	return nil
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
