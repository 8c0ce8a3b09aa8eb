// Package s3store is the archive backend on S3-compatible object storage,
// shared by any number of stateless digestd replicas.
//
// Keys are Config.Prefix + archive.BlobKey(d) for blobs and Config.Prefix +
// archive.RefKey(name) for references, whose objects hold "sha256:<hex>\n".
// Put reads its input once into a spool (memory up to Config.PartSize, a
// temporary file beyond) through archive.HashingReader, and only then uploads, so the key is
// known and a mismatch with the expected digest stores nothing. Uploads are
// conditional (If-None-Match: *), and one that finds its key present reads
// the stored object back and overwrites it unless it hashes to its key, so
// that putting a damaged blob's content again repairs it. They carry the
// content's sha256 in the signed x-amz-content-sha256 header, so the server
// rejects bytes damaged on the way;
// blobs larger than Config.PartSize go up as a multipart upload whose every
// part is sent with its own sha256. Every read is re-hashed through
// archive.VerifyingReader.
package s3store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/digestd/digestd/archive"
)

// Errors specific to S3, wrapped by the errors this package returns.
var (
	// ErrAccessDenied means the server refused the credentials or the
	// request (wrong access key or secret, clock skew, missing permission).
	// Retrying will not help.
	ErrAccessDenied = errors.New("s3store: access denied (check the access key, secret key and bucket permissions)")
	// ErrNoSuchBucket means the configured bucket does not exist.
	ErrNoSuchBucket = errors.New("s3store: bucket does not exist")
)

const (
	// DefaultPartSize is Config.PartSize when it is zero.
	DefaultPartSize = 16 << 20
	// MinPartSize is the smallest part S3 accepts in a multipart upload.
	MinPartSize = 5 << 20
	// DefaultMaxRetries is Config.MaxRetries when it is zero.
	DefaultMaxRetries = 3
	// maxRefObject caps what Ref reads from a reference object.
	maxRefObject = 1 << 10
)

// Config says where the store lives and how to reach it.
type Config struct {
	// Endpoint is the server's host[:port], or a URL ("http://127.0.0.1:7070")
	// whose scheme overrides Secure. Empty means AWS S3 ("s3.amazonaws.com").
	Endpoint string
	// Region is the bucket's region; empty means "us-east-1".
	Region string
	// AccessKey and SecretKey are the static credentials (both required);
	// SessionToken is set for temporary credentials.
	AccessKey, SecretKey, SessionToken string
	// Bucket holds the archive; it must exist.
	Bucket string
	// Prefix is prepended to every key; a trailing "/" is added if missing.
	Prefix string
	// Secure selects https for an Endpoint given as host[:port]; AWS S3
	// (empty Endpoint) always uses https.
	Secure bool
	// PathStyle addresses the bucket in the path ("host/bucket/key") rather
	// than the host name; S3-compatible servers on custom endpoints need it.
	PathStyle bool
	// PartSize is the largest blob uploaded in one PUT and the part size of
	// multipart uploads beyond it; 0 means DefaultPartSize, and it is raised
	// to MinPartSize if smaller.
	PartSize int64
	// MaxRetries is how many times a request is tried on a transient
	// failure; 0 means DefaultMaxRetries.
	MaxRetries int
	// TempDir is where blobs larger than PartSize are spooled before upload;
	// empty means os.TempDir().
	TempDir string
	// Transport, if set, carries the HTTP requests (for tests and custom
	// TLS); nil means minio-go's default transport.
	Transport http.RoundTripper
}

// ConfigFromURL builds a Config from "s3://bucket/prefix" and the standard
// AWS environment, read through getenv: AWS_ENDPOINT_URL_S3 or
// AWS_ENDPOINT_URL (a custom endpoint, addressed path-style), AWS_REGION or
// AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN.
func ConfigFromURL(rawURL string, getenv func(string) string) (Config, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return Config{}, fmt.Errorf("s3store: parse %q: %w", rawURL, err)
	}
	if u.Scheme != "s3" {
		return Config{}, fmt.Errorf("s3store: %q: want s3://bucket/prefix", rawURL)
	}
	if u.Host == "" {
		return Config{}, fmt.Errorf("s3store: %q: no bucket", rawURL)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return Config{}, fmt.Errorf("s3store: %q: want s3://bucket/prefix without credentials, query or fragment", rawURL)
	}
	cfg := Config{
		Bucket:       u.Host,
		Prefix:       strings.TrimPrefix(u.Path, "/"),
		Region:       getenv("AWS_REGION"),
		AccessKey:    getenv("AWS_ACCESS_KEY_ID"),
		SecretKey:    getenv("AWS_SECRET_ACCESS_KEY"),
		SessionToken: getenv("AWS_SESSION_TOKEN"),
		Secure:       true,
	}
	if cfg.Region == "" {
		cfg.Region = getenv("AWS_DEFAULT_REGION")
	}
	endpoint := getenv("AWS_ENDPOINT_URL_S3")
	if endpoint == "" {
		endpoint = getenv("AWS_ENDPOINT_URL")
	}
	if endpoint != "" {
		host, secure, err := parseEndpoint(endpoint)
		if err != nil {
			return Config{}, err
		}
		cfg.Endpoint, cfg.Secure, cfg.PathStyle = host, secure, true
	}
	return cfg, nil
}

// parseEndpoint accepts "host[:port]" or "http(s)://host[:port]" and
// returns the host and whether to use https (true unless the URL says http).
func parseEndpoint(endpoint string) (host string, secure bool, err error) {
	if !strings.Contains(endpoint, "://") {
		if endpoint == "" || strings.ContainsAny(endpoint, "/?#") {
			return "", false, fmt.Errorf("s3store: endpoint %q: want host[:port] or an http(s) URL", endpoint)
		}
		return endpoint, true, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", false, fmt.Errorf("s3store: endpoint %q: %w", endpoint, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
		return "", false, fmt.Errorf("s3store: endpoint %q: want http(s)://host[:port]", endpoint)
	}
	return u.Host, u.Scheme == "https", nil
}

// Store is an S3-backed archive.Store. It is safe for concurrent use.
type Store struct {
	core     minio.Core
	bucket   string
	prefix   string
	partSize int64
	tempDir  string
}

var _ archive.Store = (*Store)(nil)

// Open connects to the bucket in cfg and checks that it exists and the
// credentials are accepted: a refused login is ErrAccessDenied, a missing
// bucket ErrNoSuchBucket, an unreachable server archive.ErrUnavailable.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("s3store: no bucket configured")
	}
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, errors.New("s3store: no credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)")
	}
	host, secure := "s3.amazonaws.com", true
	if cfg.Endpoint != "" {
		h, urlSecure, err := parseEndpoint(cfg.Endpoint)
		if err != nil {
			return nil, err
		}
		host, secure = h, cfg.Secure
		if strings.Contains(cfg.Endpoint, "://") {
			secure = urlSecure
		}
	}
	region := cfg.Region
	if region == "" {
		region = "us-east-1"
	}
	lookup := minio.BucketLookupAuto
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	retries := cfg.MaxRetries
	if retries <= 0 {
		retries = DefaultMaxRetries
	}
	client, err := minio.New(host, &minio.Options{
		Creds:        credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, cfg.SessionToken),
		Secure:       secure,
		Region:       region,
		BucketLookup: lookup,
		Transport:    cfg.Transport,
		MaxRetries:   retries,
	})
	if err != nil {
		return nil, fmt.Errorf("s3store: open: %w", err)
	}
	partSize := cfg.PartSize
	if partSize == 0 {
		partSize = DefaultPartSize
	}
	partSize = max(partSize, MinPartSize)
	prefix := strings.TrimPrefix(cfg.Prefix, "/")
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	tempDir := cfg.TempDir
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	s := &Store{core: minio.Core{Client: client}, bucket: cfg.Bucket, prefix: prefix, partSize: partSize, tempDir: tempDir}

	// A one-key listing checks the bucket, the credentials and the list
	// permission at once, with an error body that names the failure (a HEAD
	// would not).
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for oi := range client.ListObjectsIter(lctx, cfg.Bucket, minio.ListObjectsOptions{Prefix: prefix, MaxKeys: 1}) {
		if oi.Err != nil {
			return nil, fmt.Errorf("s3store: open bucket %s: %w", cfg.Bucket, classify(oi.Err))
		}
		break
	}
	return s, nil
}

func (s *Store) blobKey(d archive.Hash) string { return s.prefix + archive.BlobKey(d) }
func (s *Store) refKey(name string) string     { return s.prefix + archive.RefKey(name) }

// Put implements archive.Putter. Storing a blob that exists succeeds without
// uploading it again (the server answers the conditional PUT with 412 or
// 409) when the stored object hashes to its key; one that does not (damaged
// behind the store's back) is overwritten, so that putting the same content
// again repairs it, as on disk. A connection failure is
// archive.ErrUnavailable; a body the server found damaged in transit is
// archive.ErrCorrupt.
func (s *Store) Put(ctx context.Context, want archive.Hash, r io.Reader) (archive.Hash, error) {
	if err := ctx.Err(); err != nil {
		return archive.Hash{}, fmt.Errorf("s3store: put: %w", err)
	}
	// The input is checked on the way in by the archive's one hashing
	// reader: a mismatch fails the spool at EOF, before any upload.
	hr := archive.NewHashingReader(r, want)
	sp, err := s.spool(ctx, hr)
	if err != nil {
		return archive.Hash{}, fmt.Errorf("s3store: put: %w", err)
	}
	defer sp.close()
	sp.digest = hr.Sum()
	if err := ctx.Err(); err != nil {
		return archive.Hash{}, fmt.Errorf("s3store: put %s: %w", sp.digest, err)
	}
	key := s.blobKey(sp.digest)
	put := func(overwrite bool) error {
		if sp.file == nil {
			return s.putSingle(ctx, key, sp.mem.Bytes(), sp.digest, overwrite)
		}
		return s.putMultipart(ctx, key, sp, overwrite)
	}
	err = put(false)
	if errors.Is(err, archive.ErrUnavailable) {
		// A server may answer a conditional PUT whose key exists before it
		// has read the body, and close the connection: the client then
		// sees its write fail, not the answer. The key's presence is the
		// answer it would have read.
		if _, serr := s.Stat(ctx, sp.digest); serr == nil {
			err = errStored
		}
	}
	if errors.Is(err, errStored) {
		// The blob exists: keep it if it is whole, else replace it.
		var intact bool
		if intact, err = s.intact(ctx, sp.digest); err == nil && !intact {
			err = put(true)
		}
	}
	if err != nil {
		return archive.Hash{}, fmt.Errorf("s3store: put %s: %w", sp.digest, err)
	}
	return sp.digest, nil
}

// spooled is a Put's input, read once (through the hashing reader): in mem, or in file when
// larger than the part size.
type spooled struct {
	mem    bytes.Buffer
	file   *os.File
	size   int64
	digest archive.Hash
}

func (sp *spooled) close() {
	if sp.file != nil {
		sp.file.Close()
		os.Remove(sp.file.Name())
	}
}

func (s *Store) spool(ctx context.Context, r io.Reader) (*spooled, error) {
	sp := &spooled{}
	buf := make([]byte, 256<<10)
	for {
		if err := ctx.Err(); err != nil {
			sp.close()
			return nil, err
		}
		n, rerr := r.Read(buf)
		if n > 0 {
			sp.size += int64(n)
			if sp.file == nil && int64(sp.mem.Len()+n) > s.partSize {
				f, err := os.CreateTemp(s.tempDir, ".tmp-digestd-s3-*")
				if err != nil {
					return nil, fmt.Errorf("spool: %w", err)
				}
				sp.file = f
				if _, err := f.Write(sp.mem.Bytes()); err != nil {
					sp.close()
					return nil, fmt.Errorf("spool: %w", err)
				}
				sp.mem = bytes.Buffer{}
			}
			var err error
			if sp.file != nil {
				_, err = sp.file.Write(buf[:n])
			} else {
				sp.mem.Write(buf[:n])
			}
			if err != nil {
				sp.close()
				return nil, fmt.Errorf("spool: %w", err)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			sp.close()
			return nil, fmt.Errorf("read source: %w", rerr)
		}
	}
	if err := ctx.Err(); err != nil {
		sp.close()
		return nil, err
	}
	return sp, nil
}

// errStored is a conditional upload's answer when its key exists.
var errStored = errors.New("s3store: the blob is stored already")

// intact reports whether the stored blob d hashes to d, reading it whole
// through the verifying reader; a blob that is gone is not intact.
func (s *Store) intact(ctx context.Context, d archive.Hash) (bool, error) {
	rc, err := s.Get(ctx, d)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer rc.Close()
	_, err = io.Copy(io.Discard, rc)
	switch {
	case errors.Is(err, archive.ErrCorrupt):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// putSingle uploads b in one PUT whose signature covers its sha256, and
// whose x-amz-checksum-sha256 the server checks as well: conditional
// (errStored when the key exists) unless overwrite.
func (s *Store) putSingle(ctx context.Context, key string, b []byte, d archive.Hash, overwrite bool) error {
	opts := minio.PutObjectOptions{
		ContentType:          "application/octet-stream",
		DisableContentSha256: true, // sign the hash we give, not a chunked stream
		UserMetadata:         map[string]string{"X-Amz-Checksum-Sha256": base64.StdEncoding.EncodeToString(d[:])},
	}
	if !overwrite {
		opts.SetMatchETagExcept("*")
	}
	_, err := s.core.PutObject(ctx, s.bucket, key, bytes.NewReader(b), int64(len(b)), "", d.Hex(), opts)
	if alreadyStored(err) {
		return errStored
	}
	if err != nil {
		return classify(err)
	}
	return nil
}

// putMultipart uploads the spooled file in parts of s.partSize, each signed
// with its own sha256, and completes the upload conditionally (errStored
// when the key exists) unless overwrite. A failed upload is aborted so no
// parts linger.
func (s *Store) putMultipart(ctx context.Context, key string, sp *spooled, overwrite bool) (err error) {
	uploadID, err := s.core.NewMultipartUpload(ctx, s.bucket, key, minio.PutObjectOptions{ContentType: "application/octet-stream"})
	if err != nil {
		return classify(err)
	}
	defer func() {
		if err != nil {
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			s.core.AbortMultipartUpload(actx, s.bucket, key, uploadID)
		}
	}()
	buf := make([]byte, s.partSize)
	var parts []minio.CompletePart
	for off, num := int64(0), 1; off < sp.size; off, num = off+s.partSize, num+1 {
		n := min(s.partSize, sp.size-off)
		if _, err := sp.file.ReadAt(buf[:n], off); err != nil {
			return fmt.Errorf("read spool: %w", err)
		}
		sum := sha256.Sum256(buf[:n])
		part, err := s.core.PutObjectPart(ctx, s.bucket, key, uploadID, num, bytes.NewReader(buf[:n]), n,
			minio.PutObjectPartOptions{Sha256Hex: hex.EncodeToString(sum[:]), DisableContentSha256: true})
		if err != nil {
			return fmt.Errorf("part %d: %w", num, classify(err))
		}
		parts = append(parts, minio.CompletePart{PartNumber: num, ETag: part.ETag})
	}
	opts := minio.PutObjectOptions{}
	if !overwrite {
		opts.SetMatchETagExcept("*")
	}
	_, err = s.core.CompleteMultipartUpload(ctx, s.bucket, key, uploadID, parts, opts)
	if alreadyStored(err) {
		return errStored // and the deferred abort ends the upload the server kept open
	}
	if err != nil {
		return fmt.Errorf("complete: %w", classify(err))
	}
	return nil
}

// alreadyStored reports whether err is the answer to a conditional PUT of a
// key that exists.
func alreadyStored(err error) bool {
	var er minio.ErrorResponse
	if !errors.As(err, &er) {
		return false
	}
	return er.StatusCode == http.StatusPreconditionFailed || er.Code == "PreconditionFailed" ||
		er.StatusCode == http.StatusConflict || er.Code == "ConditionalRequestConflict"
}

// Get implements archive.Getter.
func (s *Store) Get(ctx context.Context, d archive.Hash) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("s3store: get %s: %w", d, err)
	}
	body, _, _, err := s.core.GetObject(ctx, s.bucket, s.blobKey(d), minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("s3store: get %s: %w", d, classify(err))
	}
	return archive.VerifyingReader(&classifyingReader{rc: body, ctx: ctx}, d), nil
}

// classifyingReader maps errors from an object body to the archive's terms.
type classifyingReader struct {
	rc  io.ReadCloser
	ctx context.Context
}

func (c *classifyingReader) Read(p []byte) (int, error) {
	n, err := c.rc.Read(p)
	if err != nil && err != io.EOF {
		if cerr := c.ctx.Err(); cerr != nil {
			return n, cerr
		}
		return n, fmt.Errorf("s3store: read: %w", classify(err))
	}
	return n, err
}

func (c *classifyingReader) Close() error { return c.rc.Close() }

// Stat implements archive.Statter from the object's size and last-modified
// time.
func (s *Store) Stat(ctx context.Context, d archive.Hash) (archive.BlobInfo, error) {
	if err := ctx.Err(); err != nil {
		return archive.BlobInfo{}, fmt.Errorf("s3store: stat %s: %w", d, err)
	}
	oi, err := s.core.StatObject(ctx, s.bucket, s.blobKey(d), minio.StatObjectOptions{})
	if err != nil {
		return archive.BlobInfo{}, fmt.Errorf("s3store: stat %s: %w", d, classify(err))
	}
	return archive.BlobInfo{Hash: d, Size: oi.Size, ModTime: oi.LastModified}, nil
}

// List implements archive.Lister. Keys under the blob prefix that are not
// blob keys are ignored.
func (s *Store) List(ctx context.Context, fn func(archive.BlobInfo) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("s3store: list: %w", err)
	}
	root := s.prefix + archive.BlobsRoot
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for oi := range s.core.ListObjectsIter(lctx, s.bucket, minio.ListObjectsOptions{Prefix: root, Recursive: true}) {
		if oi.Err != nil {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("s3store: list: %w", err)
			}
			return fmt.Errorf("s3store: list: %w", classify(oi.Err))
		}
		d, ok := archive.ParseBlobKey(strings.TrimPrefix(oi.Key, s.prefix))
		if !ok {
			continue
		}
		if err := fn(archive.BlobInfo{Hash: d, Size: oi.Size, ModTime: oi.LastModified}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Delete implements archive.Deleter.
func (s *Store) Delete(ctx context.Context, d archive.Hash) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("s3store: delete %s: %w", d, err)
	}
	err := s.core.RemoveObject(ctx, s.bucket, s.blobKey(d), minio.RemoveObjectOptions{})
	if err != nil {
		err = classify(err)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("s3store: delete %s: %w", d, err)
	}
	return nil
}

// SetRef implements archive.Refs with an unconditional PUT, which S3 makes
// atomic: readers see the old or the new value.
func (s *Store) SetRef(ctx context.Context, name string, d archive.Hash) error {
	if !archive.ValidRefName(name) {
		return fmt.Errorf("s3store: set ref: invalid name %q", name)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("s3store: set ref %s: %w", name, err)
	}
	body := archive.RefBody(d)
	sum := sha256.Sum256(body)
	_, err := s.core.PutObject(ctx, s.bucket, s.refKey(name), bytes.NewReader(body), int64(len(body)), "", hex.EncodeToString(sum[:]),
		minio.PutObjectOptions{ContentType: "text/plain", DisableContentSha256: true})
	if err != nil {
		return fmt.Errorf("s3store: set ref %s: %w", name, classify(err))
	}
	return nil
}

// Ref implements archive.Refs. An object that does not hold a digest is
// archive.ErrCorrupt.
func (s *Store) Ref(ctx context.Context, name string) (archive.Hash, error) {
	if !archive.ValidRefName(name) {
		return archive.Hash{}, fmt.Errorf("s3store: ref: invalid name %q", name)
	}
	if err := ctx.Err(); err != nil {
		return archive.Hash{}, fmt.Errorf("s3store: ref %s: %w", name, err)
	}
	return s.readRef(ctx, name)
}

func (s *Store) readRef(ctx context.Context, name string) (archive.Hash, error) {
	body, _, _, err := s.core.GetObject(ctx, s.bucket, s.refKey(name), minio.GetObjectOptions{})
	if err != nil {
		return archive.Hash{}, fmt.Errorf("s3store: ref %s: %w", name, classify(err))
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, maxRefObject))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return archive.Hash{}, fmt.Errorf("s3store: ref %s: %w", name, cerr)
		}
		return archive.Hash{}, fmt.Errorf("s3store: ref %s: %w", name, classify(err))
	}
	d, err := archive.ParseRefBody(b)
	if err != nil {
		return archive.Hash{}, fmt.Errorf("s3store: ref %s: %w", name, err)
	}
	return d, nil
}

// ListRefs implements archive.Refs. prefix is a plain string prefix of the
// names; its directory part must itself be a valid name, as in fsstore.
func (s *Store) ListRefs(ctx context.Context, prefix string, fn func(name string, d archive.Hash) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("s3store: list refs: %w", err)
	}
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 && !archive.ValidRefName(prefix[:i]) {
		return fmt.Errorf("s3store: list refs: invalid prefix %q", prefix)
	}
	root := s.prefix + archive.RefsRoot
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for oi := range s.core.ListObjectsIter(lctx, s.bucket, minio.ListObjectsOptions{Prefix: root + prefix, Recursive: true}) {
		if oi.Err != nil {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("s3store: list refs: %w", err)
			}
			return fmt.Errorf("s3store: list refs: %w", classify(oi.Err))
		}
		name, ok := archive.ParseRefKey(strings.TrimPrefix(oi.Key, s.prefix))
		if !ok {
			continue
		}
		d, err := s.readRef(ctx, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed while listing
		}
		if err != nil {
			return fmt.Errorf("s3store: list refs: %w", err)
		}
		if err := fn(name, d); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// ListRefNamesAfter implements archive.RefPager with the listing's
// StartAfter, so a page costs one request for its names, whatever the
// number of references under prefix.
func (s *Store) ListRefNamesAfter(ctx context.Context, prefix, after string, fn func(name string) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("s3store: list ref names: %w", err)
	}
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 && !archive.ValidRefName(prefix[:i]) {
		return fmt.Errorf("s3store: list ref names: invalid prefix %q", prefix)
	}
	root := s.prefix + archive.RefsRoot
	opts := minio.ListObjectsOptions{Prefix: root + prefix, Recursive: true}
	if after != "" {
		opts.StartAfter = root + after
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for oi := range s.core.ListObjectsIter(lctx, s.bucket, opts) {
		if oi.Err != nil {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("s3store: list ref names: %w", err)
			}
			return fmt.Errorf("s3store: list ref names: %w", classify(oi.Err))
		}
		name, ok := archive.ParseRefKey(strings.TrimPrefix(oi.Key, s.prefix))
		if !ok || name <= after {
			continue
		}
		if err := fn(name); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// classify maps an error from minio-go or the network to the archive's
// terms, so SDK error types do not leak out of this package: a missing key
// wraps fs.ErrNotExist, refused credentials ErrAccessDenied, a missing bucket
// ErrNoSuchBucket, a body damaged in transit archive.ErrCorrupt, and an
// unreachable or failing server archive.ErrUnavailable. Context errors are
// kept as they are.
func classify(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var er minio.ErrorResponse
	if errors.As(err, &er) {
		detail := er.Code
		if er.Message != "" {
			detail += ": " + er.Message
		}
		switch {
		case er.Code == "NoSuchKey" || er.Code == "NotFound":
			return fmt.Errorf("%w (%s)", fs.ErrNotExist, er.Code)
		case er.Code == "NoSuchBucket":
			return ErrNoSuchBucket
		case er.Code == "AccessDenied" || er.Code == "InvalidAccessKeyId" || er.Code == "SignatureDoesNotMatch" ||
			er.Code == "InvalidToken" || er.Code == "ExpiredToken" || er.Code == "XAdminUserNotFound" || er.Code == "RequestTimeTooSkewed" ||
			er.StatusCode == http.StatusForbidden || er.StatusCode == http.StatusUnauthorized:
			return fmt.Errorf("%w: %s", ErrAccessDenied, detail)
		case er.Code == "BadDigest" || er.Code == "XAmzContentSHA256Mismatch" || er.Code == "InvalidDigest" ||
			er.Code == "IncompleteBody":
			return fmt.Errorf("%w: server rejected the upload: %s", archive.ErrCorrupt, detail)
		case er.StatusCode == http.StatusNotFound:
			return fmt.Errorf("%w (%s)", fs.ErrNotExist, detail)
		case er.StatusCode >= 500 || er.Code == "SlowDown" || er.Code == "RequestTimeout" || er.StatusCode == http.StatusTooManyRequests:
			return fmt.Errorf("%w: %s", archive.ErrUnavailable, detail)
		}
		return fmt.Errorf("s3 error: %s (HTTP %d)", detail, er.StatusCode)
	}
	var netErr net.Error
	var urlErr *url.Error
	if errors.As(err, &netErr) || errors.As(err, &urlErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return fmt.Errorf("%w: %v", archive.ErrUnavailable, err)
	}
	return err
}
