// Package pipeline is digestd's one flow: ingest a source, archive its
// canonical text and record, and digest it for a query, with the digest
// cached in the archive by content address. The HTTP API, the batch job and
// the MCP tools all call it, so each behaviour exists once.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/htmltext"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/locate"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/search"
	"github.com/digestd/digestd/structure"
)

// Limits bound what one digest may read.
type Limits struct {
	// MaxTextBytes caps an archived text read back for digesting.
	MaxTextBytes int64
}

// Pipeline runs the flow. Its fields are set once at start and not changed.
type Pipeline struct {
	Ingester *ingest.Ingester
	Store    archive.Store
	Limits   Limits
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Index is the search index every archived text enters; nil
	// disables search.
	Index search.Index
	// Log receives what the pipeline notes but does not return (a text
	// the search index failed to take); nil logs nothing.
	Log *slog.Logger

	cacheHits, cacheMisses atomic.Int64
	// corrupt holds the blobs found corrupt since start (archive.Hash →
	// struct{}), until a put of the same content repairs them.
	corrupt     sync.Map
	corruptSeen atomic.Int64
	// probe caches the write probe's last outcome (see ProbeWrite).
	probe writeProbe
	// indexes caches the locate indexes of archived texts by hash.
	indexes locate.Cache
	// size is the archive's size, counted once and kept by putOnce and
	// CollectGarbage.
	size archiveSize
	// indexFailures counts texts the search index failed to take since
	// start.
	indexFailures atomic.Int64
	// indexer feeds the search index what the archive accepts.
	indexer indexer
	// digests keeps the archived digests last read, decoded.
	digests digestMemo
}

// readBlob reads a blob of at most limit bytes, noting it when it is found
// corrupt so that the next put of its content repairs it.
func (p *Pipeline) readBlob(ctx context.Context, d archive.Hash, limit int64) ([]byte, error) {
	b, err := archive.ReadAll(ctx, p.Store, d, limit)
	if errors.Is(err, archive.ErrCorrupt) {
		p.noteCorrupt(d)
	}
	return b, err
}

// readText reads an archived text as readBlob does, up to MaxTextBytes. It
// is verified against d as it is read, so it carries d as its hash and is
// not hashed again.
func (p *Pipeline) readText(ctx context.Context, d archive.Hash) (archive.Blob, error) {
	b, err := archive.ReadBlob(ctx, p.Store, d, p.MaxTextBytes())
	if errors.Is(err, archive.ErrCorrupt) {
		p.noteCorrupt(d)
	}
	return b, err
}

func (p *Pipeline) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Request is one source to digest for one query.
type Request struct {
	// ID is the caller's name for the source (optional).
	ID     string
	Source ingest.Source
	// Archive, when valid, names an archived canonical text to digest
	// instead of Source.
	Archive archive.Hash
	Query   string
	Options digest.Options
	// Labels are added to the source's labels (checked by CheckLabels).
	Labels []string
	// Links asks for the source's links in its SourceInfo.
	Links bool
}

// SourceInfo describes the digested source; wire renders it (data.source
// in the API, see wire.Source).
type SourceInfo struct {
	ID string
	// ArchiveHash names the source's canonical text, RecordHash its
	// record (zero when none is archived).
	ArchiveHash   archive.Hash
	RecordHash    archive.Hash
	Kind          string
	Title         string
	Canonicalizer string
	Record        *ingest.Record
	// Decisions are the HTML extractor's decisions on the page, when the
	// source asked for them (ingest.Source.Explain).
	Decisions []htmltext.Decision
	// Links are the source's first MaxSourceLinks links, when the request
	// asked for them (Request.Links); empty when it has none or they are
	// not known.
	Links *[]Link
}

// Result is a digest with what is known of its source.
type Result struct {
	Payload    *digest.Payload
	Source     SourceInfo
	DigestHash archive.Hash
	CacheHit   bool
	Warnings   []Warning
	// Match is how the whole text matches the query (see digest.Match).
	Match *digest.Match
}

// Warning is a non-fatal remark about a result, with what it counts
// (Context, optional).
type Warning struct {
	Code    fault.Warning  `json:"code"`
	Message string         `json:"message"`
	Context map[string]any `json:"context,omitempty"`
}

// Reference names, under the archive's mutable namespace.
const (
	sourceRefPrefix = "sources/"
	digestRefPrefix = "digests/"
)

// Digest runs the whole flow for one request.
func (p *Pipeline) Digest(ctx context.Context, req Request) (*Result, error) {
	if err := req.Options.Validate(); err != nil {
		return nil, fault.Wrap(fault.ValidationError, err.Error(), err)
	}
	if utf8.RuneCountInString(req.Query) > digest.MaxQueryChars {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("query: exceeds maximum length of %d characters", digest.MaxQueryChars))
	}
	labels, err := CheckLabels("labels", req.Labels)
	if err != nil {
		return nil, err
	}
	req.Labels = labels
	var (
		text  archive.Blob
		info  SourceInfo
		warns []Warning
		st    textStructure
	)
	if req.Archive.Valid() {
		t, rec, recHash, err := p.Archived(ctx, req.Archive)
		if err != nil {
			return nil, err
		}
		text = t
		info = sourceInfo(req.ID, req.Archive, recHash, rec)
		if rec != nil {
			st = textStructure{Hash: rec.StructureHash, Load: func() (*structure.Structure, error) { return p.Structure(ctx, t, rec) }}
		}
		if len(req.Labels) > 0 {
			labels, err := p.addLabels(ctx, req.Archive, req.Labels)
			if err != nil {
				return nil, err
			}
			p.queueIndex(ctx, req.Archive, text.String(), info.Kind, labels, p.now())
		}
	} else {
		doc, err := p.Ingester.Ingest(ctx, req.Source)
		if err != nil {
			return nil, err
		}
		textHash, recHash, err := p.store(ctx, doc, req.Labels)
		if err != nil {
			return nil, err
		}
		text = doc.Text
		info = sourceInfo(req.ID, textHash, recHash, &doc.Record)
		st = textStructure{Hash: doc.Record.StructureHash, Load: func() (*structure.Structure, error) {
			if doc.Sidecar.Len() == 0 {
				return nil, nil
			}
			return structure.Read([]byte(doc.Sidecar.String()), doc.Text.String(), doc.Text.Hash())
		}}
		if doc.Trace != nil {
			info.Decisions = doc.Trace.Decisions
		}
		for _, w := range doc.Warnings {
			warns = append(warns, Warning{Code: w.Code, Message: w.Message})
		}
	}
	if req.Links {
		w, err := p.sourceLinks(ctx, text, &info)
		if err != nil {
			return nil, err
		}
		warns = append(warns, w...)
	}
	// A PDF's, a presentation's or a spreadsheet's text is paged: its
	// locators take the page form even when it has a single page.
	res, err := p.digest(ctx, text, st, req.Query, req.Options, format.Paginated(info.Kind))
	if err != nil {
		return nil, err
	}
	res.Source = info
	res.Warnings = append(warns, res.Warnings...)
	return res, nil
}

// Archive ingests and archives one source without digesting it, with
// req.Labels added to its labels, and returns what is known of it; the
// text enters the search index as every archived text does.
func (p *Pipeline) Archive(ctx context.Context, req Request) (SourceInfo, error) {
	labels, err := CheckLabels("labels", req.Labels)
	if err != nil {
		return SourceInfo{}, err
	}
	doc, err := p.Ingester.Ingest(ctx, req.Source)
	if err != nil {
		return SourceInfo{}, err
	}
	textHash, recHash, err := p.store(ctx, doc, labels)
	if err != nil {
		return SourceInfo{}, err
	}
	return sourceInfo(req.ID, textHash, recHash, &doc.Record), nil
}

func sourceInfo(id string, textHash, recHash archive.Hash, rec *ingest.Record) SourceInfo {
	info := SourceInfo{ID: id, ArchiveHash: textHash, Canonicalizer: normalize.Version, Kind: ingest.KindText}
	if id == "" {
		info.ID = textHash.String()
	}
	if recHash.Valid() {
		info.RecordHash = recHash
	}
	if rec != nil {
		info.Kind = rec.Kind
		info.Title = rec.Title
		info.Canonicalizer = rec.Canonicalizer
		info.Record = rec
	}
	return info
}

// store archives a document's canonical text and record, adds labels to the
// source's, points the source's reference at the record, and then queues
// the text for the search index: the one place where the archive accepts
// a text, whichever edge sent it. It returns both hashes. What is already
// stored is not written again, so a repeated request costs reads, not
// fsyncs.
func (p *Pipeline) store(ctx context.Context, doc *ingest.Document, labels []string) (text, record archive.Hash, err error) {
	text, record, err = p.storeText(ctx, doc)
	if err != nil {
		return text, record, err
	}
	all, err := p.addLabels(ctx, text, labels)
	if err != nil {
		return archive.Hash{}, archive.Hash{}, err
	}
	p.queueIndex(ctx, text, doc.Text.String(), doc.Record.Kind, all, p.now())
	return text, record, nil
}

// storeText is store without labels and the index. The record it returns
// is always the one of doc, this input's: every raw input of a text keeps
// its own record (see recordKey), and the source's reference names one of
// them.
func (p *Pipeline) storeText(ctx context.Context, doc *ingest.Document) (text, record archive.Hash, err error) {
	text, textBefore, err := p.putOnce(ctx, doc.Text)
	if err != nil {
		return archive.Hash{}, archive.Hash{}, archiveFault("store the canonical text", err)
	}
	// The structure's sidecar and the page's outside links go in before
	// the record that names them.
	if doc.Sidecar.Len() > 0 {
		if _, _, err := p.putOnce(ctx, doc.Sidecar); err != nil {
			return archive.Hash{}, archive.Hash{}, archiveFault("store the text's structure", err)
		}
	}
	if doc.OutsideLinks.Len() > 0 {
		if _, _, err := p.putOnce(ctx, doc.OutsideLinks); err != nil {
			return archive.Hash{}, archive.Hash{}, archiveFault("store the page's links", err)
		}
	}
	rec, err := json.Marshal(struct {
		TextHash archive.Hash `json:"text_hash"`
		ingest.Record
	}{text, doc.Record})
	if err != nil {
		return archive.Hash{}, archive.Hash{}, fault.Wrap(fault.Internal, "encode the source record", err)
	}
	record, _, err = p.putOnce(ctx, archive.NewBlob(string(rec)))
	if err != nil {
		return archive.Hash{}, archive.Hash{}, archiveFault("store the source record", err)
	}
	name := sourceRefPrefix + text.Hex()
	prev, err := p.Store.Ref(ctx, name)
	switch {
	case err == nil && prev == record:
		// The source's record, kept under its key when it was first named
		// (after a crash between the two, or in an archive not migrated
		// yet, Records reads it from here).
		return text, record, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return archive.Hash{}, archive.Hash{}, archiveFault("find the source record", err)
	}
	if !prev.Valid() {
		// First archived now: list it from now on, newest first. The index
		// entry is written before the source's reference, which is what
		// marks the text as listed: a crash between the two leaves an
		// entry that a later upload completes (and reuses), never a source
		// that is acknowledged and not listed. The record is kept under its
		// key last, so that a crash leaves no reference to an unlisted text.
		if err := p.indexSource(ctx, text, record, textBefore); err != nil {
			return archive.Hash{}, archive.Hash{}, archiveFault("record the source", err)
		}
		if err := p.Store.SetRef(ctx, name, record); err != nil {
			return archive.Hash{}, archive.Hash{}, archiveFault("record the source", err)
		}
		if err := p.keepRecord(ctx, text, &doc.Record, record); err != nil {
			return archive.Hash{}, archive.Hash{}, archiveFault("keep the source record", err)
		}
		return text, record, nil
	}
	// Another input of the same text (or this one, read again) named its
	// record first. This one keeps its own, and may become the source's.
	if err := p.keepRecord(ctx, text, &doc.Record, record); err != nil {
		return archive.Hash{}, archive.Hash{}, archiveFault("keep the source record", err)
	}
	stays, err := p.sourceRecordStays(ctx, text, prev, &doc.Record, int64(len(rec)))
	if err != nil || stays {
		return text, record, err
	}
	if err := p.Store.SetRef(ctx, name, record); err != nil {
		return archive.Hash{}, archive.Hash{}, archiveFault("record the source", err)
	}
	return text, record, nil
}

// sourceRecordStays reports whether prev, the record the source's
// reference names, stays named when a record rec of size bytes is kept
// beside it. A record of the same input replaces it (it is the newer), and
// so does an unreadable one (the new record repairs the reference). A
// larger record of another input does not, so that no uploader can push
// the record a listing shows past the read cap on records; a record no
// larger does (a later fetch). Before prev is replaced it is kept under its
// key, which an archive written before records were kept per input may
// not have done.
func (p *Pipeline) sourceRecordStays(ctx context.Context, text, prev archive.Hash, rec *ingest.Record, size int64) (bool, error) {
	b, err := p.readBlob(ctx, prev, 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, archive.ErrCorrupt), errors.Is(err, archive.ErrTooLarge):
		return false, nil
	case err != nil:
		return false, archiveFault("read the source record", err)
	}
	var old ingest.Record
	if json.Unmarshal(b, &old) != nil {
		return false, nil
	}
	if recordKey(&old) == recordKey(rec) {
		return false, nil
	}
	if size > int64(len(b)) {
		return true, nil
	}
	if _, err := p.keepOlderRecord(ctx, text, &old, prev); err != nil {
		return false, archiveFault("keep the source record", err)
	}
	return false, nil
}

// putOnce stores b unless a blob with its hash was stored whole a moment ago: a
// stored blob of another size, or one found corrupt, is replaced (the store
// takes the hash b carries and writes exactly b's bytes), which repairs it.
// It also reports whether the blob was stored before.
func (p *Pipeline) putOnce(ctx context.Context, b archive.Blob) (archive.Hash, bool, error) {
	d := b.Hash()
	// A blob written a moment ago is reused as it is. An older one is written
	// again, which renews its time: it may be an orphan that garbage
	// collection is about to take, and is about to be referenced again.
	bi, serr := p.Store.Stat(ctx, d)
	before := serr == nil && bi.Size == int64(b.Len())
	if before && p.now().Sub(bi.ModTime) < MinGCGrace/2 {
		if _, bad := p.corrupt.Load(d); !bad {
			return d, true, nil
		}
	}
	got, err := archive.PutBlob(ctx, p.Store, b)
	if err == nil {
		p.corrupt.Delete(d)
		switch {
		case errors.Is(serr, fs.ErrNotExist):
			p.size.add(1, int64(b.Len()))
		case serr == nil:
			p.size.add(0, int64(b.Len())-bi.Size)
		}
	}
	return got, before, err
}

// Archived returns an archived canonical text (carrying d, which it was
// verified against as it was read) and, when known, its source record and
// the record's hash.
func (p *Pipeline) Archived(ctx context.Context, d archive.Hash) (archive.Blob, *ingest.Record, archive.Hash, error) {
	text, err := p.readText(ctx, d)
	if err != nil {
		return archive.Blob{}, nil, archive.Hash{}, archiveFault("read the archive", err)
	}
	if !utf8.ValidString(text.String()) {
		return archive.Blob{}, nil, archive.Hash{}, fault.E(fault.InvalidFormat, "the archived blob is not a canonical text")
	}
	rec, recHash, err := p.Record(ctx, d)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return archive.Blob{}, nil, archive.Hash{}, err
	}
	return text, rec, recHash, nil
}

// Record returns the source record of an archived canonical text, the one
// its source reference names (the record listings show; Records returns
// all of them), and the record blob's hash; fs.ErrNotExist (wrapped in a
// NOT_FOUND fault) when the text has no record.
func (p *Pipeline) Record(ctx context.Context, text archive.Hash) (*ingest.Record, archive.Hash, error) {
	recHash, err := p.Store.Ref(ctx, sourceRefPrefix+text.Hex())
	if err != nil {
		return nil, archive.Hash{}, archiveFault("find the source record", err)
	}
	rec, err := p.readRecord(ctx, recHash)
	if err != nil {
		return nil, archive.Hash{}, err
	}
	return rec, recHash, nil
}

// MaxTextBytes is the largest archived blob the pipeline reads back.
func (p *Pipeline) MaxTextBytes() int64 {
	if p.Limits.MaxTextBytes > 0 {
		return p.Limits.MaxTextBytes
	}
	return 64 << 20
}

// Blob returns an archived blob's verified bytes, with errors classified
// for clients.
func (p *Pipeline) Blob(ctx context.Context, d archive.Hash) ([]byte, error) {
	b, err := p.readBlob(ctx, d, p.MaxTextBytes())
	if err != nil {
		return nil, archiveFault("read the archive", err)
	}
	return b, nil
}

// cacheKey names a digest by everything that determines it: the canonical
// text, the normalized query, the options, the digester and payload
// versions, and the structure's sidecar (its sections), when the text has
// one. Two inputs of one text may have different structures.
func cacheKey(textHash, structureHash archive.Hash, query string, opts digest.Options, paginated bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d/%d/%d/%d/%t", digest.DigesterVersion, textHash,
		digest.NormalizeQuery(query), opts.MaxEvidence, opts.MaxKeyPoints, opts.SnippetMaxChars, opts.SummaryMaxChars, paginated)
	fmt.Fprintf(h, "\x00%s", digest.PayloadVersion)
	if structureHash.Valid() {
		fmt.Fprintf(h, "\x00%s", structureHash)
	}
	return digestRefPrefix + hex.EncodeToString(h.Sum(nil))
}

// digest returns the cached digest of text for query and options, or builds,
// verifies and caches it, its snippets under the sections of st, the text's
// structure. The text's hash, its source_text_hash, is the one it carries
// from archiving it or reading it from the archive.
func (p *Pipeline) digest(ctx context.Context, text archive.Blob, st textStructure, query string, opts digest.Options, paginated bool) (*Result, error) {
	textHash := text.Hash()
	opts = opts.WithDefaults()
	key := cacheKey(textHash, st.Hash, query, opts, paginated)
	if res, ok := p.cached(ctx, key, textHash); ok {
		p.cacheHits.Add(1)
		return res, nil
	}
	p.cacheMisses.Add(1)
	payload, match, dw, err := digest.BuildMatch(text, query, opts)
	if err != nil {
		return nil, fault.Wrap(fault.Internal, "build the digest", err)
	}
	if paginated {
		if err := digest.PaginateLocators(payload, text.String()); err != nil {
			return nil, fault.Wrap(fault.Internal, "page the digest's locators", err)
		}
	}
	// A sidecar that cannot be read (gone, corrupt: p.Structure notes it)
	// costs the snippets their sections, not the digest; the digest is not
	// cached under the sidecar's key then, so a repaired sidecar gives them.
	cache := true
	if st.Hash.Valid() && st.Load != nil {
		s, err := st.Load()
		if err != nil {
			cache = false
			if p.Log != nil {
				p.Log.Warn("digest: the text's structure was not read; its snippets have no sections", "archive_hash", textHash.String(), "err", err)
			}
		}
		addSections(payload, text.String(), s)
	}
	// The contract: nothing leaves unless it validates and every locator
	// verifies against the text it names.
	if _, err := digest.Verify(payload, text); err != nil {
		return nil, fault.Wrap(fault.Internal, "the digest failed verification", err)
	}
	b, err := json.Marshal(storedDigest{Payload: payload, Warnings: convertWarnings(dw), Match: match})
	if err != nil {
		return nil, fault.Wrap(fault.Internal, "encode the digest", err)
	}
	d, _, err := p.putOnce(ctx, archive.NewBlob(string(b)))
	if err != nil {
		return nil, archiveFault("store the digest", err)
	}
	if !cache {
		return &Result{Payload: payload, DigestHash: d, Warnings: convertWarnings(dw), Match: match}, nil
	}
	if err := p.Store.SetRef(ctx, key, d); err != nil {
		return nil, archiveFault("record the digest", err)
	}
	return &Result{Payload: payload, DigestHash: d, Warnings: convertWarnings(dw), Match: match}, nil
}

// storedDigest is the archived form of a digest.
type storedDigest struct {
	Payload  *digest.Payload `json:"payload"`
	Warnings []Warning       `json:"warnings,omitempty"`
	// Match is the document-level evidence multi-source ranking uses.
	Match *digest.Match `json:"match,omitempty"`
}

// cached returns the digest under key if it is present, readable, valid and
// about the text hashed textHash; anything else is a miss (and is rebuilt).
func (p *Pipeline) cached(ctx context.Context, key string, textHash archive.Hash) (*Result, bool) {
	d, err := p.Store.Ref(ctx, key)
	if err != nil {
		return nil, false
	}
	sd, ok := p.digests.get(d)
	if !ok {
		if sd, err = p.readDigest(ctx, d); err != nil {
			return nil, false
		}
		p.digests.add(d, sd)
	}
	if sd.Payload.SourceTextHash != textHash.String() {
		return nil, false
	}
	return &Result{Payload: sd.Payload, DigestHash: d, CacheHit: true, Warnings: sd.Warnings, Match: sd.Match}, true
}

// readDigest reads an archived digest blob and validates its payload.
func (p *Pipeline) readDigest(ctx context.Context, d archive.Hash) (*storedDigest, error) {
	b, err := p.readBlob(ctx, d, 1<<20)
	if err != nil {
		return nil, archiveFault("read the digest", err)
	}
	var sd storedDigest
	if err := json.Unmarshal(b, &sd); err != nil || sd.Payload == nil {
		return nil, fault.E(fault.InvalidFormat, "the archived blob is not a digest")
	}
	if err := digest.Validate(sd.Payload); err != nil {
		return nil, fault.Wrap(fault.InvalidFormat, "the archived digest does not validate", err)
	}
	return &sd, nil
}

func convertWarnings(ws []digest.Warning) []Warning {
	var out []Warning
	for _, w := range ws {
		out = append(out, Warning{Code: w.Code, Message: w.Message})
	}
	return out
}

// archiveFault classifies an archive error for clients.
func archiveFault(op string, err error) error {
	return ArchiveFault(op, err)
}

// ArchiveFault classifies an error of reading or writing the archive for
// clients: NOT_FOUND, TOO_LARGE, ARCHIVE_CORRUPT, UNAVAILABLE, else
// INTERNAL_ERROR naming op. An error that is already a fault is kept.
func ArchiveFault(op string, err error) error {
	var fe *fault.Error
	switch {
	case errors.As(err, &fe):
		return err
	case errors.Is(err, fs.ErrNotExist):
		return fault.Wrap(fault.NotFound, "no archived content has that hash", err)
	case errors.Is(err, archive.ErrTooLarge):
		return fault.Wrap(fault.TooLarge, "the archived content exceeds the read limit", err)
	case errors.Is(err, archive.ErrCorrupt):
		return fault.Wrap(fault.ArchiveCorrupt, "the archived content failed its integrity check and is not served", err)
	case errors.Is(err, archive.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return fault.Wrap(fault.Unavailable, "the archive is unavailable", err)
	case resourceExhausted(err):
		return fault.Wrap(fault.Unavailable, "the archive cannot be used now (out of files or disk, or not writable)", err).With("retry_after", 5)
	}
	return fault.Wrap(fault.Internal, op, err)
}
