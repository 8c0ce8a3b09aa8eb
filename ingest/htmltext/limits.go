package htmltext

// The thresholds of the rules, one value a rule (see limitsOf): each is
// read by its rule's logic and printed by the docs and the trace from
// here. Lengths are in visible characters (white space not counted).

// The search's thresholds.
var (
	// mainTopLimits are main-top's: how text runs vote and how the best
	// container is chosen.
	mainTopLimits = struct {
		// minRunChars: shorter text runs do not vote for a container.
		minRunChars int `limit:"minRunChars"`
		// maxAncestorLevels: how far up a run's vote reaches.
		maxAncestorLevels int `limit:"maxAncestorLevels"`
		// splitShare is the share of the best score from which another
		// candidate counts as a part of content split over several
		// containers.
		splitShare float64 `limit:"splitSharePct"`
		// splitRanked: how many of the best candidates are weighed as
		// parts; splitParts: how many parts, under one ancestor, make it
		// the content.
		splitRanked int `limit:"splitRanked"`
		splitParts  int `limit:"splitParts"`
		// climbFraction: the climb to a parent that scores higher stops
		// at a candidate scoring less than 1/climbFraction of the last.
		climbFraction float64 `limit:"climbFraction"`
		// A run's vote is 1, plus one a comma, plus one every
		// runBonusChars characters up to runBonusMax; given in full to its
		// first voter, half to the next and 1/(levelDivisor×level) beyond.
		runBonusChars int     `limit:"runBonusChars"`
		runBonusMax   float64 `limit:"runBonusMax"`
		levelDivisor  int     `limit:"levelDivisor"`
		// A candidate's score starts from its tag's weight (see
		// tagWeight) and its class and id names' (see contentWeight).
		articleWeight     float64 `limit:"articleWeight"`
		blockWeight       float64 `limit:"blockWeight"`
		cellWeight        float64 `limit:"cellWeight"`
		listWeight        float64 `limit:"listWeight"`
		headingWeight     float64 `limit:"headingWeight"`
		hintWeight        float64 `limit:"hintWeight"`
		articleBodyWeight float64 `limit:"articleBodyWeight"`
		// lostBestShare: the emission of the chosen roots lost the
		// best-scoring container when it is shorter than 1/lostBestShare
		// of that container's text (see holdBest). 1, 2 and 4 gave the
		// same wcxb and trafilatura results; with 1 the filters' ordinary
		// trimming of a dateline or a credit line counted as a loss on an
		// aeb article page, which took its furniture back.
		lostBestShare int `limit:"lostBestShare"`
		// bestProseParas is the fewest paragraphs of running text (see
		// isProse) the best-scoring container holds, at any depth, for
		// holdBest to keep it: an article's body, not a lone text block
		// or a list (2 and 3 give the same results on the dev sets; with
		// 1 a service page's short text block took over its grid of
		// offerings).
		bestProseParas int `limit:"bestProseParas"`
	}{minRunChars: 25, maxAncestorLevels: 5, splitShare: 0.4, splitRanked: 5, splitParts: 3, climbFraction: 3,
		runBonusChars: 100, runBonusMax: 3, levelDivisor: 3,
		articleWeight: 8, blockWeight: 5, cellWeight: 3, listWeight: -3, headingWeight: -5, hintWeight: 25, articleBodyWeight: 50,
		lostBestShare: 2, bestProseParas: 2}

	// Content split into parts: the best-scoring container may be one part of
	// a run of parts that each hold prose, laid out side by side under one
	// ancestor: the posts of a thread, the sections of a guide or of a
	// service page, each wrapped in its own block. The other parts are
	// cousins of the chosen container, which withSiblings does not reach.
	//
	// mainProseRunLimits are main-prose-run's (see withProseRun).
	mainProseRunLimits = struct {
		// runLevels is how far above the chosen container withProseRun
		// looks for the run it belongs to.
		runLevels int `limit:"runLevels"`
		// postLevels is how far above the chosen container withProseRun
		// looks on a thread page: forum software wraps each post's text
		// in as many as eight blocks (the post, its cells, its body, its
		// quoting wrapper), so that the run of posts sits further up
		// than the sections of a guide.
		postLevels int `limit:"postLevels"`
		// runLinkShare is the most share of link text a run of parts may
		// have: more, and the parts are teasers and link lists, not
		// content.
		runLinkShare float64 `limit:"runLinkSharePct"`
		// runTopShare is the most share of the run's text the chosen
		// container may hold for the run to replace it: a container with
		// more is the content, and the other parts are extras beside it.
		runTopShare float64 `limit:"runTopSharePct"`
		// postLinkShare is the most share of link text in a post's
		// running text: on a thread page, a part holding running text
		// with less is a post whatever its markup (see isPart); the
		// thread detection counts posts by it too (see hasPostRun).
		postLinkShare float64 `limit:"postLinkSharePct"`
	}{runLevels: 6, postLevels: 10, runLinkShare: 0.1, runTopShare: 0.5, postLinkShare: 0.2}

	// mainSiblingLimits are main-sibling's (see withSiblings).
	mainSiblingLimits = struct {
		// A sibling of the chosen container joins it when it scores at
		// least siblingShare of the container's score and at least
		// siblingMinScore, a share more (classBonusShare of the
		// container's score) when it has the container's class.
		siblingMinScore float64 `limit:"siblingScore"`
		siblingShare    float64 `limit:"siblingSharePct"`
		classBonusShare float64 `limit:"classBonusSharePct"`
		// A paragraph beside it joins it with more than paragraphChars
		// and less than paragraphLinkShare of its text in links, or with
		// fewer, no link, and a sentence's end.
		paragraphChars     int     `limit:"siblingParagraphChars"`
		paragraphLinkShare float64 `limit:"siblingParagraphLinkSharePct"`
	}{siblingMinScore: 10, siblingShare: 0.2, classBonusShare: 0.2, paragraphChars: 80, paragraphLinkShare: 0.25}

	// mainLeadLimits are main-lead's (see withLead); main-trail and the
	// other rules that ask for a paragraph of prose read them too.
	mainLeadLimits = struct {
		// leadScopeLevels is how far above the chosen container prose
		// that comes before it (a lead paragraph, a standfirst) is looked
		// for.
		leadScopeLevels int `limit:"leadScopeLevels"`
		// proseChars is the least length of a paragraph of running text,
		// proseLinkShare the share of it in links it stays under.
		proseChars     int     `limit:"proseChars"`
		proseLinkShare float64 `limit:"proseLinkSharePct"`
		// pictureLevels is how deep below a block between the lead and
		// the content a picture is looked for (see holdsPicture).
		pictureLevels int `limit:"pictureLevels"`
	}{leadScopeLevels: 4, proseChars: 60, proseLinkShare: 0.2, pictureLevels: 4}

	// The <main> landmark (or an element with role="main") is the author's
	// own statement of where the content is. When the chosen containers hold
	// only a small part of it (a description beside its specification table,
	// one section of a documentation page), the landmark is the better root,
	// unless runs of link cards (more posts, related items) make up most of
	// it: a listing, for the list reading.
	//
	// mainLandmarkLimits are main-landmark's (see withLandmark).
	mainLandmarkLimits = struct {
		// landmarkShare is the share of the landmark's text below which
		// the chosen containers give way to it.
		landmarkShare float64 `limit:"landmarkSharePct"`
		// landmarkLinkShare is the most share of link text a landmark
		// taken as root may have.
		landmarkLinkShare float64 `limit:"landmarkLinkSharePct"`
	}{landmarkShare: 0.5, landmarkLinkShare: 0.33}

	// mainPartLimits are main-part's (see withParts).
	mainPartLimits = struct {
		// partChars is the least text of a candidate that brings its
		// part in.
		partChars int `limit:"partChars"`
		// partsRanked is how many of the best candidates withParts looks
		// at.
		partsRanked int `limit:"partsRanked"`
		// partsLinkShare is the most share of link text a part of the
		// page taken beside the chosen content may have.
		partsLinkShare float64 `limit:"partsLinkSharePct"`
	}{partChars: 200, partsRanked: 5, partsLinkShare: 0.33}

	// A service or product-marketing page lays its content out as a run of
	// sections, one after another: a hero, features, testimonials, pricing,
	// questions and answers. Each section has a heading and some text of its
	// own, and none holds most of the page, so the content search settles on
	// one of them. When the chosen containers hold less than a share of the
	// text of the run of sections around them (sectionsShare on a page that
	// declares itself an article, pageSectionsShare on others), the run is the
	// content.
	//
	// mainSectionsLimits are main-sections' (see withSections): when the
	// chosen containers hold less than a share of the text of the run of
	// sections around them (sectionsShare on a page that declares itself
	// an article, pageSectionsShare on others), the run is the content.
	mainSectionsLimits = struct {
		// minSections is the least number of sections (the chosen one
		// included) that make a run.
		minSections int `limit:"minSections"`
		// sectionChars is the least text of a section.
		sectionChars int `limit:"sectionChars"`
		// sectionsShare is the share of the run's text below which the
		// chosen containers give way to the run on a page that declares
		// itself an article.
		sectionsShare float64 `limit:"sectionsSharePct"`
		// pageSectionsShare is that share on other pages (a service
		// page's sections around its longest one). On wcxb-dev, 0.65 to
		// 0.8 change only service pages, all for the better; from 0.9
		// undeclared articles take in blocks after their text.
		pageSectionsShare float64 `limit:"pageSectionsSharePct"`
		// maxSectionRoots is the most roots withSections looks at.
		maxSectionRoots int `limit:"maxSectionRoots"`
		// betweenLinkShare is the most share of link text of a sibling
		// taken between sections (see runBetween).
		betweenLinkShare float64 `limit:"betweenLinkSharePct"`
	}{minSections: 3, sectionChars: 100, sectionsShare: 0.5, pageSectionsShare: 0.75, maxSectionRoots: 16, betweenLinkShare: 0.5}
)

// The emission's thresholds.
var (
	// linkDenseContainerLimits are link-dense-container's (see
	// isBoilerplateContainer): a container inside the main content is
	// boilerplate with more than boilerplateLinkShare of its text in
	// links; with more than weakLinkShare when its hints weigh less than
	// weakWeight (see contentWeight) and it holds fewer than weakParas
	// paragraphs; with more than namedLinkShare when its hints name it
	// furniture.
	linkDenseContainerLimits = struct {
		boilerplateLinkShare float64 `limit:"boilerplateLinkSharePct"`
		weakLinkShare        float64 `limit:"weakLinkSharePct"`
		weakWeight           float64 `limit:"weakWeight"`
		weakParas            int     `limit:"weakParas"`
		namedLinkShare       float64 `limit:"namedLinkSharePct"`
	}{boilerplateLinkShare: 0.5, weakLinkShare: 0.33, weakWeight: 25, weakParas: 3, namedLinkShare: 0.1}

	// appealLimits are appeal's (see isAppeal).
	appealLimits = struct {
		// appealMaxChars: a longer box is content, whatever it asks.
		appealMaxChars int `limit:"appealMaxChars"`
		// appealLevels is how many containers above a call to action
		// are taken for the box of an appeal (see markAppeal): the box
		// wraps its form in a few layers. 3 and 4 do the same on the dev
		// sets; from 6 on, the box reaches the lead of an article whose
		// paywall asks for an address.
		appealLevels int `limit:"appealLevels"`
	}{appealMaxChars: 1000, appealLevels: 4}

	// nestedCardsLimits are nested-card-run's (see isNestedCards).
	nestedCardsLimits = struct {
		// cardLinkShare is the least share of link text in a run of
		// same-shaped siblings that makes them cards (teasers) rather
		// than content.
		cardLinkShare float64 `limit:"cardLinkSharePct"`
	}{cardLinkShare: 0.3}

	// introductionLimits are introduction's; slot-introduction reads
	// them too.
	introductionLimits = struct {
		// introChars: a longer heading or line introduces nothing.
		introChars int `limit:"introChars"`
	}{introChars: 80}

	// generatedIDsLimits are generated-ids' (see isGeneratedIDs).
	generatedIDsLimits = struct {
		// minGeneratedIDs is the least number of identifiers in a block
		// of them.
		minGeneratedIDs int `limit:"minGeneratedIDs"`
	}{minGeneratedIDs: 3}

	// twinLimits are screen-reader-twin's (see isTwin).
	twinLimits = struct {
		// twinChars bounds the label a twin copies; twinMinChars is the
		// least of it.
		twinChars    int `limit:"twinChars"`
		twinMinChars int `limit:"twinMinChars"`
	}{twinChars: 120, twinMinChars: 3}

	// itemCopyLimits are item-copy's (see dropItemCopies).
	itemCopyLimits = struct {
		// itemRepeatWindow is how many blocks back a copy is looked for.
		itemRepeatWindow int `limit:"itemRepeatWindow"`
	}{itemRepeatWindow: 10}

	// repeatLimits are repeat's (see dropRepeats).
	repeatLimits = struct {
		// copyPct: a block whose first copyPct per cent is its
		// neighbour's start is its shortened copy (see truncatedCopy).
		copyPct int `limit:"copyPct"`
	}{copyPct: 90}

	// headFragmentLimits are head-fragment's (see trimHead);
	// tail-fragment reads them too.
	headFragmentLimits = struct {
		// fragmentChars: a shorter line is a fragment.
		fragmentChars int `limit:"fragmentChars"`
		// headBlocks: how many blocks at the start are looked at.
		headBlocks int `limit:"headBlocks"`
	}{fragmentChars: 40, headBlocks: 6}

	// tailFragmentLimits are tail-fragment's (see trimTail).
	tailFragmentLimits = struct {
		// tailLinkedChars: a shorter trailing block with a link is taken
		// for a call to action or a credit ("Follow us on …").
		tailLinkedChars int `limit:"tailLinkedChars"`
		// tailBlocks: how many trailing blocks are looked at.
		tailBlocks int `limit:"tailBlocks"`
	}{tailLinkedChars: 150, tailBlocks: 5}

	// cardLabelLimits are card-label's (see dropLabels).
	cardLabelLimits = struct {
		// labelChars: a longer block is no label.
		labelChars int `limit:"labelChars"`
	}{labelChars: 30}
)

// The page's thresholds.
var (
	// lenientReadingLimits are lenient-reading's; strict-reading reads
	// them too.
	lenientReadingLimits = struct {
		// retryChars: a shorter extraction is retried more leniently.
		retryChars int `limit:"retryChars"`
	}{retryChars: 1000}

	// shownReadingLimits are shown-reading's; whole-body reads them too.
	shownReadingLimits = struct {
		// minContentChars: a shorter extraction falls back to the whole
		// body.
		minContentChars int `limit:"minContentChars"`
	}{minContentChars: 400}

	// listContentLimits are list-content's (see itemList.isContent).
	listContentLimits = struct {
		// minListItems is the least number of same-shaped siblings that
		// make a list.
		minListItems int `limit:"minListItems"`
		// minListChars is the least text of a list worth reading as
		// content.
		minListChars int `limit:"minListChars"`
		// listRatio is how many times longer than the article-like
		// content the items must be to replace it.
		listRatio int `limit:"listRatio"`
		// longListRatio is listRatio for article-like content of
		// minContentChars or more: a real text (a news story beside its
		// teasers, a product beside similar products) yields only to a
		// list that dwarfs it.
		longListRatio int `limit:"longListRatio"`
		// manyListItems is the number of items from which a list
		// replaces some article-like text; a shorter list (a few
		// teasers, a few comments) replaces only next to nothing
		// (sparseChars).
		manyListItems int `limit:"manyListItems"`
		// sparseChars is the length of article-like text that is next to
		// nothing: a title, a "Load more" button.
		sparseChars int `limit:"sparseChars"`
		// cardLinks: the most links of a card.
		cardLinks int `limit:"cardLinks"`
		// groupLevels: how far down groups of cards are looked for.
		groupLevels int `limit:"groupLevels"`
		// listShare is the least share of a container's text its
		// repeated items must hold (see listContainer).
		listShare float64 `limit:"listSharePct"`
		// hintedTextRatio is how many times longer than a listing of the
		// strict reading the text that only the reading without class
		// hints finds must be to replace it (see itemList.keepsOver).
		hintedTextRatio int `limit:"hintedTextRatio"`
		// fieldLinkShare is the least share of link text in a run of
		// product cards (see isFieldCards): the linked name among the
		// unlinked price, rating and attributes.
		fieldLinkShare float64 `limit:"fieldLinkSharePct"`
	}{minListItems: 3, minListChars: 200, listRatio: 4, longListRatio: 7, manyListItems: 6, sparseChars: 100, cardLinks: 3, groupLevels: 4,
		listShare: 0.5, hintedTextRatio: 4, fieldLinkShare: 0.1}

	// appShellLimits are app-shell's: an extraction of fewer than
	// minMainChars from a page of at least shellElements elements is
	// returned empty. A small page (a fragment, a note) may say little
	// and mean it.
	appShellLimits = struct {
		minMainChars  int `limit:"minMainChars"`
		shellElements int `limit:"shellElements"`
	}{minMainChars: 64, shellElements: 50}

	// runningHeadLimits are running-head's: a short block (under
	// runningHeadChars), not a heading nor a table row, that opens or
	// closes at least runningHeadChapters of a book's chapters word for
	// word.
	runningHeadLimits = struct {
		runningHeadChars    int `limit:"runningHeadChars"`
		runningHeadChapters int `limit:"runningHeadChapters"`
	}{runningHeadChars: 80, runningHeadChapters: 3}
)

// The cleaner's thresholds.
var (
	// productCardRunLimits are product-card-run's (see isCardRun and
	// isProductCard).
	productCardRunLimits = struct {
		// minCards is the least number of product cards that make a run.
		minCards int `limit:"minCards"`
		// cardChars is the most visible text of a card.
		cardChars int `limit:"cardChars"`
		// cardLinkChars is the least linked text of a card: a product
		// name.
		cardLinkChars int `limit:"cardLinkChars"`
		// cardNodes is the most nodes a card is read through, which
		// keeps the test of every block linear in the page.
		cardNodes int `limit:"cardNodes"`
	}{minCards: 4, cardChars: 400, cardLinkChars: 10, cardNodes: 200}

	// threadUserPanelLimits are thread-user-panel's (see isShortPairs).
	threadUserPanelLimits = struct {
		// shortPairChars: a longer term or value is no panel's.
		shortPairChars int `limit:"shortPairChars"`
	}{shortPairChars: 40}

	// tocLimits are table-of-contents' (see isTableOfContents);
	// book-contents reads them too.
	tocLimits = struct {
		// tocMinLinks is the fewest in-page links of a table of contents.
		tocMinLinks int `limit:"tocMinLinks"`
		// tocLinkedShare: all but 1/tocLinkedShare of a table of
		// contents' text is in its links.
		tocLinkedShare int `limit:"tocLinkedShare"`
	}{tocMinLinks: 3, tocLinkedShare: 5}

	// citationListLimits are citation-list's (see isCitationList).
	citationListLimits = struct {
		// citationListMin is the fewest items of a list of citations,
		// citedPct the least share of them, in per cent, that cite.
		citationListMin int `limit:"citationListMin"`
		citedPct        int `limit:"citedPct"`
	}{citationListMin: 3, citedPct: 90}

	// datelineLimits are dateline's; byline reads them too.
	datelineLimits = struct {
		// datelineChars: a longer line is no dateline nor byline;
		// datelineNodes: the most nodes looked at.
		datelineChars int `limit:"datelineChars"`
		datelineNodes int `limit:"datelineNodes"`
	}{datelineChars: 100, datelineNodes: 32}

	// figcaptionCreditLimits are figcaption-credit's.
	figcaptionCreditLimits = struct {
		// figcaptionTextChars is the length from which a figure caption
		// is a text of its own, kept as content: a photo's caption (what
		// it shows, who took it) is shorter, and is left out like a
		// credit line. 400, 600 and 1000 give the same results on the
		// three HTML dev sets; 250 keeps one caption more that a
		// reference leaves out.
		figcaptionTextChars int `limit:"figcaptionTextChars"`
	}{figcaptionTextChars: 600}

	// pageHeaderLimits are page-header's.
	pageHeaderLimits = struct {
		// headerParas: a <header> of as many paragraphs is content.
		headerParas int `limit:"headerParas"`
		// sectionHeaderNodes bounds the nodes looked at for the header
		// of a section (see isSectionHeader): a heading and a line or
		// two.
		sectionHeaderNodes int `limit:"sectionHeaderNodes"`
	}{headerParas: 3, sectionHeaderNodes: 256}

	// controlLabelLimits are control-label's (see labelsControl).
	controlLabelLimits = struct {
		// labelNodes: the most nodes of a label looked at.
		labelNodes int `limit:"labelNodes"`
	}{labelNodes: 100}

	// formNoscriptLimits are form-noscript's.
	formNoscriptLimits = struct {
		// formParas: a <form> or <noscript> of as many paragraphs is
		// content.
		formParas int `limit:"formParas"`
	}{formParas: 3}

	// authorBoxLimits are author-box's (see isAuthorBox).
	authorBoxLimits = struct {
		// authorBoxChars: a longer box is no author's box; minAuthorName
		// is the least length of a name.
		authorBoxChars int `limit:"authorBoxChars"`
		minAuthorName  int `limit:"minAuthorName"`
		// afterProseLevels is how many ancestors of a box are looked
		// past for running text before it (see afterProse).
		afterProseLevels int `limit:"afterProseLevels"`
	}{authorBoxChars: 1200, minAuthorName: 5, afterProseLevels: 6}

	// panelButtonLimits are panel-button's (see opensPanel); the
	// exceptions of hidden read them too.
	panelButtonLimits = struct {
		// panelLinkParts: less than 1/panelLinkParts of a panel's text
		// is in links.
		panelLinkParts int `limit:"panelLinkParts"`
		// panelControlLevels is how far above a button the panel it
		// controls is looked for among the following siblings.
		panelControlLevels int `limit:"panelControlLevels"`
	}{panelLinkParts: 3, panelControlLevels: 3}

	// hiddenLimits are hidden's (see cleaner.isDisclosure).
	hiddenLimits = struct {
		// panelWrapDepth is how many wrappers deep an element named by
		// an aria-controls is looked for below a hidden panel (see
		// namesPanel): accordion scripts hide a collapsing wrapper
		// around it.
		panelWrapDepth int `limit:"panelWrapDepth"`
	}{panelWrapDepth: 3}

	// captionCreditHintLimits are caption-credit-hint's.
	captionCreditHintLimits = struct {
		// figcaptionKeepChars is the length from which a block named as a
		// caption or credit is kept as content rather than dropped as a
		// credit line.
		figcaptionKeepChars int `limit:"figcaptionKeepChars"`
	}{figcaptionKeepChars: 150}

	// furnitureWeakLimits are furniture-weak's (see weakParagraphs).
	furnitureWeakLimits = struct {
		// furnitureParas: a block weakly named as furniture with as many
		// paragraphs is content.
		furnitureParas int `limit:"furnitureParas"`
	}{furnitureParas: 3}
)
