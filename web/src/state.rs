//! The site's state: what is loaded, the selection, the grouping and the view, changed only by
//! [`Action`]s through [`State::apply`], so that it is tested on the host without a browser.
//!
//! Every number comes from `wasmeval-core`: the reducer recomputes the [`Report`] whenever the
//! data, the selection or the grouping changes, exactly as `wasmeval report` does.

use std::collections::BTreeSet;
use std::rc::Rc;
use wasmeval_core::facets::Facet;
use wasmeval_core::metrics::ScoreOptions;
use wasmeval_core::query::Query;
use wasmeval_core::report::{Bundle, NamedRun, Prepared, Report};
use wasmeval_core::{Language, Task, TaskId};

/// A loaded bundle with the values its filters offer.
#[derive(Debug)]
pub struct Dataset {
    /// Where it came from (a URL or a file name), for the header and errors.
    pub source: String,
    /// The bundle.
    pub bundle: Bundle,
    /// Distinct values of each filterable field, sorted.
    pub choices: Choices,
    /// The results arranged in units once, so that each change of selection only rescores.
    pub prepared: Prepared,
}

/// Distinct values a filter can take in a dataset.
#[derive(Debug, Default, PartialEq)]
pub struct Choices {
    /// Models of the results.
    pub models: Vec<String>,
    /// Topics of the tasks.
    pub topics: Vec<String>,
    /// Source kinds and names of the tasks (the query's `source` accepts both).
    pub sources: Vec<String>,
    /// Years of the tasks.
    pub years: Vec<u32>,
    /// Languages of the tasks.
    pub languages: Vec<String>,
    /// Difficulties of the tasks.
    pub difficulties: Vec<String>,
}

/// A dataset equals only itself. Yew compares states on every dispatch; comparing two handles on
/// one bundle of 100,000 results field by field would cost more than rescoring it.
impl PartialEq for Dataset {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Dataset {
    /// Indexes `bundle`'s filter values.
    pub fn new(source: String, bundle: Bundle) -> Self {
        let mut models = BTreeSet::new();
        bundle
            .results
            .iter()
            .filter_map(|r| r.model.clone())
            .for_each(|m| {
                models.insert(m);
            });
        let (mut topics, mut sources, mut years, mut languages, mut difficulties) = (
            BTreeSet::new(),
            BTreeSet::new(),
            BTreeSet::new(),
            BTreeSet::new(),
            BTreeSet::new(),
        );
        for task in &bundle.tasks {
            let metadata = &task.metadata;
            topics.extend(metadata.topics.iter().cloned());
            if let Some(source) = &metadata.source {
                sources.insert(source.kind.as_str().to_owned());
                sources.extend(source.name.clone());
            }
            years.extend(metadata.year);
            languages.insert(task.language.as_str().to_owned());
            difficulties.extend(metadata.difficulty.clone());
        }
        let choices = Choices {
            models: models.into_iter().collect(),
            topics: topics.into_iter().collect(),
            sources: sources.into_iter().collect(),
            years: years.into_iter().collect(),
            languages: languages.into_iter().collect(),
            difficulties: difficulties.into_iter().collect(),
        };
        let prepared = Prepared::new(&bundle.tasks, &bundle.results);
        Dataset {
            source,
            bundle,
            choices,
            prepared,
        }
    }
}

/// Where loading stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Load {
    /// Nothing loaded yet: the landing page with the file picker and the demo.
    Idle,
    /// Fetching or reading the named source.
    Loading(String),
    /// The named source could not be used, and why.
    Failed {
        /// A URL or a file name.
        source: String,
        /// What went wrong; for a malformed bundle, the field's path first.
        message: String,
    },
    /// A dataset is shown.
    Ready,
}

/// The page shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Each metric per group.
    Overview,
    /// The tasks selected, with their distributions.
    Explorer,
    /// Pass rates by topic and by complexity, per model.
    Performance,
    /// Two models side by side.
    Compare,
    /// Every selected sample, and one in detail.
    Samples,
    /// Edit code and run it on the server that served the page.
    Playground,
    /// Blind human review of the selection's code, and the reviewers' aggregates.
    Review,
}

impl View {
    /// Every view, in menu order.
    pub const ALL: [View; 7] = [
        View::Overview,
        View::Explorer,
        View::Performance,
        View::Compare,
        View::Samples,
        View::Playground,
        View::Review,
    ];

    /// The view's name in the page's URL (`?view=samples`).
    pub fn slug(self) -> &'static str {
        match self {
            View::Overview => "overview",
            View::Explorer => "dataset",
            View::Performance => "topics",
            View::Compare => "compare",
            View::Samples => "samples",
            View::Playground => "playground",
            View::Review => "review",
        }
    }

    /// The menu label on a phone's narrow screen, where the menu wraps onto two lines.
    pub fn short_label(self) -> &'static str {
        match self {
            View::Performance => "Topics",
            View::Compare => "Compare",
            view => view.label(),
        }
    }

    /// The menu label.
    pub fn label(self) -> &'static str {
        match self {
            View::Overview => "Overview",
            View::Explorer => "Dataset",
            View::Performance => "By topic & complexity",
            View::Compare => "Compare models",
            View::Samples => "Samples",
            View::Playground => "Playground",
            View::Review => "Review",
        }
    }
}

/// What `GET api/v1/health` of a `wasmeval serve` answers, the fields the page uses.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct Health {
    /// wasmeval's version.
    pub version: String,
    /// The languages the server can run.
    pub languages: Vec<String>,
    /// The server's limits, which a request may only lower.
    pub limits: HealthLimits,
}

/// The limits in [`Health`].
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct HealthLimits {
    /// Fuel per sample.
    pub fuel: u64,
    /// Memory per execution, in bytes.
    pub memory: u64,
    /// Wall-clock limit, in milliseconds.
    pub timeout_ms: u64,
}

/// Whether a `wasmeval serve` served the page, so that code can run.
#[derive(Debug, Clone, PartialEq)]
pub enum Server {
    /// Not known yet: the probe is under way.
    Probing,
    /// A static host: nothing can run code.
    Absent,
    /// A static host whose site ships guests (`report --site DIR --with-runtimes`): code in these
    /// languages runs in this browser (`sandbox_worker`).
    Browser(Vec<Language>),
    /// A server whose API needs a token (`--token`), which the page does not have.
    Locked,
    /// A server answered.
    Present(Health),
}

/// The playground's code, kept while other views are shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The task run against, or none for a program run on `stdin`.
    pub task: Option<TaskId>,
    /// The program's language (the task's, for a task).
    pub language: Language,
    /// The whole program.
    pub code: String,
    /// The input of a program with no task.
    pub stdin: String,
}

impl Default for Draft {
    fn default() -> Self {
        Draft {
            task: None,
            language: Language::Python,
            code: String::new(),
            stdin: String::new(),
        }
    }
}

impl Draft {
    /// A draft for `task`: its language, its prompt to complete.
    pub fn for_task(task: &Task) -> Draft {
        Draft {
            task: Some(task.id.clone()),
            language: task.language,
            code: task.prompt.clone(),
            stdin: String::new(),
        }
    }
}

/// What the page's URL says of the page: the view, the selection, the grouping, the sample
/// open and the models compared, so that a link reproduces the page and Back and Forward move
/// between pages. The bundle's own `?bundle=` is kept as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Place {
    /// `view=`.
    pub view: Option<View>,
    /// `where=`, the query as typed.
    pub query: Option<String>,
    /// `by=`, facets joined by `,` (`by=` alone: no grouping).
    pub group_by: Option<Vec<Facet>>,
    /// `sample=`, an index.
    pub sample: Option<u64>,
    /// `compare=`, two models joined by `,`.
    pub compare: Option<[Option<String>; 2]>,
    /// `task=`, the task open in Compare.
    pub task: Option<TaskId>,
    /// `ci=1`: pass@k with its intervals.
    pub intervals: bool,
}

impl Place {
    /// Reads a URL's query string (`?view=samples&sample=3`); what it does not know is ignored.
    pub fn parse(search: &str) -> Place {
        let mut place = Place::default();
        for (key, value) in url_pairs(search) {
            match key.as_str() {
                "view" => place.view = View::ALL.into_iter().find(|v| v.slug() == value),
                "where" => place.query = Some(value),
                "by" => {
                    place.group_by = Some(
                        value
                            .split(',')
                            .filter(|f| !f.is_empty())
                            .filter_map(|f| f.parse().ok())
                            .collect(),
                    )
                }
                "sample" => place.sample = value.parse().ok(),
                "task" if !value.is_empty() => place.task = Some(TaskId(value)),
                "ci" => place.intervals = value == "1",
                "compare" => {
                    let mut models = value
                        .splitn(2, ',')
                        .map(|m| (!m.is_empty()).then(|| m.to_owned()));
                    place.compare = Some([models.next().flatten(), models.next().flatten()]);
                }
                _ => {}
            }
        }
        place
    }

    /// The query string of `state`'s page, keeping `bundle` when given; defaults are left out.
    pub fn of(state: &State, bundle: Option<&str>) -> String {
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if let Some(bundle) = bundle {
            pairs.push(("bundle", bundle.to_owned()));
        }
        if state.view != View::Overview {
            pairs.push(("view", state.view.slug().to_owned()));
        }
        if !state.query_text.trim().is_empty() {
            pairs.push(("where", state.query_text.trim().to_owned()));
        }
        if state.group_by != [Facet::Model] {
            let names: Vec<String> = state.group_by.iter().map(ToString::to_string).collect();
            pairs.push(("by", names.join(",")));
        }
        if state.intervals {
            pairs.push(("ci", "1".to_owned()));
        }
        if let Some(sample) = state.sample.filter(|_| state.view == View::Samples) {
            pairs.push(("sample", sample.to_string()));
        }
        if state.view == View::Compare {
            let [a, b] = &state.compare;
            let name = |m: &Option<String>| m.clone().unwrap_or_default();
            pairs.push(("compare", format!("{},{}", name(a), name(b))));
            if let Some(task) = &state.compare_task {
                pairs.push(("task", task.0.clone()));
            }
        }
        if pairs.is_empty() {
            return String::new();
        }
        let encoded: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{k}={}", url_encode(v)))
            .collect();
        format!("?{}", encoded.join("&"))
    }
}

impl State {
    /// The query string of the page `change` makes of this one (keeping `bundle`): the link a
    /// row or a sample points to.
    pub fn link(&self, bundle: Option<&str>, change: impl FnOnce(&mut State)) -> String {
        let mut next = self.clone();
        change(&mut next);
        let search = Place::of(&next, bundle);
        if search.is_empty() {
            "?".to_owned()
        } else {
            search
        }
    }

    /// How the open bundle numbers the sample of results index `index`: its run's own number,
    /// and the run when the bundle combines several (core's `show::SampleNumber`).
    pub fn sample_number(&self, index: u64) -> wasmeval_core::show::SampleNumber {
        let runs = self.data.as_ref().map_or(&[][..], |d| &d.bundle.runs[..]);
        wasmeval_core::show::SampleNumber::of(runs, index)
    }
}

/// `key=value` pairs of a query string, decoded.
fn url_pairs(search: &str) -> Vec<(String, String)> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (url_decode(k), url_decode(v))
        })
        .collect()
}

/// Percent-encodes what a query string's value cannot hold as it is.
fn url_encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b'/'
            | b','
            | b':' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Decodes `%XX` and `+` (a space); a `%` not followed by two hex digits stays as it is.
fn url_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'+', _) => out.push(b' '),
            (b'%', Some(value)) => {
                out.push(value);
                i += 2;
            }
            (byte, _) => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Everything the page shows follows from this.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Loading status.
    pub load: Load,
    /// The dataset, once loaded.
    pub data: Option<Rc<Dataset>>,
    /// The selection as typed: the command line's `--where` syntax.
    pub query_text: String,
    /// The selection in force (the last one that parsed).
    pub query: Query,
    /// Why `query_text` does not parse, when it does not.
    pub query_error: Option<String>,
    /// The text of `query`: `query_text` when it parses, else the last text that did.
    pub query_applied: String,
    /// Facets the overview groups by, as the command line's `--by`.
    pub group_by: Vec<Facet>,
    /// Whether pass@k shows its 95% interval, as the command line's `--ci`.
    pub intervals: bool,
    /// The page shown.
    pub view: View,
    /// The sample shown in detail, by index.
    pub sample: Option<u64>,
    /// The two models compared.
    pub compare: [Option<String>; 2],
    /// The task whose two models' samples Compare shows in place.
    pub compare_task: Option<TaskId>,
    /// The report of the selection, grouped by `group_by`.
    pub report: Option<Rc<Report>>,
    /// Whether code can run here.
    pub server: Server,
    /// The playground's code.
    pub draft: Draft,
    /// A place the URL asked for, applied once its bundle is open.
    pub pending: Option<Place>,
    /// Bytes of the loading bundle received, and expected when the server said.
    pub progress: Option<(u64, Option<u64>)>,
}

impl Default for State {
    fn default() -> Self {
        State {
            load: Load::Idle,
            data: None,
            query_text: String::new(),
            query: Query::default(),
            query_error: None,
            query_applied: String::new(),
            group_by: vec![Facet::Model],
            intervals: false,
            view: View::Overview,
            sample: None,
            compare: [None, None],
            compare_task: None,
            report: None,
            server: Server::Probing,
            draft: Draft::default(),
            pending: None,
            progress: None,
        }
    }
}

/// What can happen to the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Started loading from a URL or a file.
    Loading(String),
    /// Bytes received of the bundle loading, and expected when known.
    Progress(u64, Option<u64>),
    /// A source's text arrived: parse it as a bundle.
    Loaded {
        /// A URL or a file name.
        source: String,
        /// Its contents.
        text: String,
    },
    /// Several files' texts arrived (name, text): one opens as [`Action::Loaded`] does;
    /// several bundles over the same tasks combine into one, results without a model labelled by
    /// their file's name (`report::combine`, as `wasmeval report A B` does).
    LoadedRuns(Vec<(String, String)>),
    /// A source could not be read.
    Failed {
        /// A URL or a file name.
        source: String,
        /// Why.
        message: String,
    },
    /// Back to the landing page.
    Close,
    /// A new selection text (`topic=strings;year=2018..`).
    Query(String),
    /// One field of the selection set to a value (empty removes the field).
    SetTerm {
        /// The query field (`topic`, `year`, ...).
        field: String,
        /// Its value in query syntax.
        value: String,
    },
    /// New grouping facets.
    GroupBy(Vec<Facet>),
    /// Show pass@k's 95% intervals, or not.
    Intervals(bool),
    /// Another page.
    Show(View),
    /// Show a sample in detail, or none.
    Sample(Option<u64>),
    /// Choose the first (0) or second (1) model compared.
    Compare(usize, Option<String>),
    /// Open a task's two models' samples in Compare, or close them.
    CompareTask(Option<TaskId>),
    /// The server probe's answer.
    Server(Server),
    /// The playground's code changed.
    Draft(Draft),
    /// Go to a place the URL names (on start, and on Back and Forward); kept until a bundle is
    /// open when none is yet.
    Go(Place),
    /// Open a sample's code in the playground, against its task.
    EditAndRun {
        /// The sample's task.
        task_id: TaskId,
        /// Its program.
        code: String,
    },
}

impl State {
    /// The state after `action`.
    pub fn apply(&self, action: Action) -> State {
        let mut next = self.clone();
        match action {
            Action::Loading(source) => {
                next.load = Load::Loading(source);
                next.progress = None;
            }
            Action::Progress(received, expected) => {
                if matches!(next.load, Load::Loading(_)) {
                    next.progress = Some((received, expected));
                }
            }
            Action::LoadedRuns(mut files) if files.len() == 1 => {
                let (source, text) = files.remove(0);
                return self.apply(Action::Loaded { source, text });
            }
            Action::LoadedRuns(files) => {
                let source = files
                    .iter()
                    .map(|(name, _)| name.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ");
                match combine_bundles(files) {
                    Ok(bundle) => next.open(source, bundle),
                    Err(message) => next.load = Load::Failed { source, message },
                }
            }
            Action::Loaded { source, text } => match Bundle::parse(&text) {
                Ok(bundle) => next.open(source, bundle),
                Err(message) => next.load = Load::Failed { source, message },
            },
            Action::Failed { source, message } => next.load = Load::Failed { source, message },
            Action::Close => {
                next = State {
                    server: next.server,
                    ..State::default()
                };
            }
            Action::Query(text) => {
                next.query_text = text;
                next.apply_query_text();
            }
            Action::SetTerm { field, value } => {
                next.query_text = set_term(&next.query_text, &field, &value);
                next.apply_query_text();
            }
            Action::GroupBy(facets) => {
                next.group_by = facets;
                next.rescore();
            }
            Action::Intervals(on) => {
                next.intervals = on;
                next.rescore();
            }
            Action::Show(view) => next.view = view,
            Action::Sample(index) => next.sample = index,
            Action::Compare(slot, model) => {
                if let Some(entry) = next.compare.get_mut(slot) {
                    *entry = model;
                }
            }
            Action::CompareTask(task) => next.compare_task = task,
            Action::Server(server) => next.server = server,
            Action::Go(place) => match next.data {
                Some(_) => next.go(place),
                None => next.pending = Some(place),
            },
            Action::Draft(draft) => next.draft = draft,
            Action::EditAndRun { task_id, code } => {
                let task = next
                    .data
                    .as_ref()
                    .and_then(|d| d.bundle.tasks.iter().find(|t| t.id == task_id));
                if let Some(task) = task {
                    next.draft = Draft {
                        code,
                        ..Draft::for_task(task)
                    };
                    next.view = View::Playground;
                }
            }
        }
        next
    }

    /// Shows `bundle`, opened from `source`.
    fn open(&mut self, source: String, bundle: Bundle) {
        let data = Dataset::new(source, bundle);
        self.compare = [
            data.choices.models.first().cloned(),
            data.choices.models.get(1).cloned(),
        ];
        self.draft = data
            .bundle
            .tasks
            .first()
            .map_or_else(Draft::default, Draft::for_task);
        self.data = Some(Rc::new(data));
        self.load = Load::Ready;
        self.sample = None;
        self.compare_task = None;
        self.rescore();
        if let Some(place) = self.pending.take() {
            self.go(place);
        }
    }

    /// Shows `place`: what it names changes, the rest goes back to its default.
    fn go(&mut self, place: Place) {
        self.view = place.view.unwrap_or(View::Overview);
        self.query_text = place.query.unwrap_or_default();
        self.group_by = place.group_by.unwrap_or_else(|| vec![Facet::Model]);
        self.sample = place.sample;
        self.intervals = place.intervals;
        if let Some(compare) = place.compare {
            self.compare = compare;
        }
        self.compare_task = place.task;
        self.apply_query_text();
        self.rescore();
    }

    /// Parses `query_text`; on success the selection changes and the report follows, on failure
    /// the old selection stays in force and the error is shown.
    fn apply_query_text(&mut self) {
        match Query::parse(&self.query_text) {
            Ok(query) => {
                self.query = query;
                self.query_error = None;
                self.query_applied = self.query_text.trim().to_owned();
                self.rescore();
            }
            Err(message) => self.query_error = Some(message),
        }
    }

    fn rescore(&mut self) {
        self.report = self
            .data
            .as_ref()
            .map(|data| Rc::new(report(data, &self.query, &self.group_by, self.intervals)));
    }

    /// The selection the numbers shown are computed with, as text.
    pub fn query_text_in_force(&self) -> &str {
        &self.query_applied
    }

    /// The value `query_text` gives `field`, if it is a simple term there.
    pub fn term(&self, field: &str) -> Option<String> {
        terms(&self.query_text)
            .into_iter()
            .find(|(f, _)| f == field)
            .map(|(_, v)| v)
    }
}

/// Several bundles (file name, text) over the same tasks as one, each file's results without a
/// model labelled by the file's name without `.json`. An error names the file at fault.
fn combine_bundles(files: Vec<(String, String)>) -> Result<Bundle, String> {
    let mut runs = Vec::new();
    for (name, text) in files {
        let bundle = Bundle::parse(&text).map_err(|e| format!("{name}: {e}"))?;
        runs.push(NamedRun {
            name: wasmeval_core::report::run_name(&name).to_owned(),
            tasks: bundle.tasks,
            results: bundle.results,
            parts: bundle.runs,
        });
    }
    let combined = wasmeval_core::report::combine_runs(runs)?;
    Ok(Bundle::new(combined.tasks, combined.results).with_runs(combined.runs))
}

/// The report the site shows for a selection and grouping: the command line's defaults
/// (`wasmeval report --where Q --by F`, with `--ci` for `intervals`), so the two always agree.
pub fn report(data: &Dataset, query: &Query, facets: &[Facet], intervals: bool) -> Report {
    Report::prepared(
        &data.prepared,
        &data.bundle.tasks,
        &data.bundle.results,
        query,
        facets,
        &ScoreOptions {
            intervals,
            ..ScoreOptions::default()
        },
    )
}

/// `field=value` terms of a query text in term syntax; nothing for JSON queries.
fn terms(text: &str) -> Vec<(String, String)> {
    if text.trim_start().starts_with('{') {
        return Vec::new();
    }
    text.split(';')
        .filter_map(|t| t.split_once('='))
        .map(|(f, v)| (f.trim().to_owned(), v.trim().to_owned()))
        .collect()
}

/// `text` with `field` set to `value`, replacing the field's term where it was (or removing it
/// when `value` is empty) and keeping every other term. A JSON query is replaced.
pub fn set_term(text: &str, field: &str, value: &str) -> String {
    let mut kept: Vec<String> = if text.trim_start().starts_with('{') {
        Vec::new()
    } else {
        text.split(';')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let position = kept
        .iter()
        .position(|t| t.split_once('=').is_some_and(|(f, _)| f.trim() == field));
    let term = format!("{field}={}", value.trim());
    match (position, value.trim().is_empty()) {
        (Some(i), true) => {
            kept.remove(i);
        }
        (Some(i), false) => kept[i] = term,
        (None, true) => {}
        (None, false) => kept.push(term),
    }
    kept.join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmeval_core::synthetic;

    fn loaded() -> State {
        let text = serde_json::to_string(&synthetic::bundle(400, 3)).unwrap();
        State::default().apply(Action::Loaded {
            source: "synthetic".into(),
            text,
        })
    }

    #[test]
    fn loading_a_bundle_scores_it_by_model() {
        let state = loaded();
        assert_eq!(state.load, Load::Ready);
        let report = state.report.as_ref().unwrap();
        let data = state.data.as_ref().unwrap();
        assert_eq!(report.facets, ["model"]);
        assert_eq!(report.groups.len(), data.choices.models.len());
        // The same numbers as the bundle's own metrics, which the command line computed.
        assert_eq!(report.groups, data.bundle.metrics.groups);
        assert_eq!(state.compare[0].as_deref(), Some("model-a"));
    }

    #[test]
    fn a_malformed_bundle_fails_with_the_field_path() {
        let mut bundle = serde_json::to_value(synthetic::bundle(40, 1)).unwrap();
        bundle["results"][3]["verdict"] = "maybe".into();
        let state = State::default().apply(Action::Loaded {
            source: "bad.json".into(),
            text: bundle.to_string(),
        });
        match state.load {
            Load::Failed { source, message } => {
                assert_eq!(source, "bad.json");
                assert!(
                    message.starts_with("results[3].verdict: unknown variant `maybe`"),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_query_rescores_and_a_bad_one_keeps_the_last_selection() {
        let state = loaded().apply(Action::Query("model=model-b".into()));
        let report = state.report.clone().unwrap();
        assert_eq!(report.groups.len(), 1);
        assert_eq!(report.groups[0].keys, ["model-b"]);
        let bad = state.apply(Action::Query("year=abc".into()));
        assert!(bad.query_error.is_some());
        assert_eq!(bad.query, state.query);
        assert_eq!(bad.report, state.report);
        assert_eq!(bad.query_text_in_force(), "model=model-b");
    }

    #[test]
    fn intervals_rescore_and_live_in_the_url() {
        let state = loaded().apply(Action::Intervals(true));
        let report = state.report.clone().unwrap();
        assert!(!report.overall.pass_at_k_interval.is_empty());
        assert!(report.table().headers.contains(&"pass@1_low".to_owned()));
        let search = Place::of(&state, None);
        assert_eq!(search, "?ci=1");
        let back = State::default()
            .apply(Action::Go(Place::parse(&search)))
            .apply(Action::Loaded {
                source: "b.json".into(),
                text: serde_json::to_string(&synthetic::bundle(400, 3)).unwrap(),
            });
        assert!(back.intervals);
        assert_eq!(back.report.unwrap().overall, report.overall);
    }

    #[test]
    fn filters_edit_one_term_of_the_query_text() {
        assert_eq!(set_term("", "topic", "strings"), "topic=strings");
        assert_eq!(
            set_term("topic=strings;year=2018..", "topic", "lists"),
            "topic=lists;year=2018.."
        );
        assert_eq!(
            set_term("topic=strings;year=2018..", "topic", ""),
            "year=2018.."
        );
        assert_eq!(set_term(r#"{"years":{"min":1}}"#, "model", "m"), "model=m");
        let state = loaded().apply(Action::SetTerm {
            field: "topic".into(),
            value: "strings".into(),
        });
        assert_eq!(state.query_text, "topic=strings");
        assert_eq!(state.term("topic").as_deref(), Some("strings"));
        assert_eq!(state.query.topics_any, ["strings"]);
    }

    #[test]
    fn the_playground_starts_on_the_first_task_and_edit_and_run_opens_a_sample_there() {
        let state = loaded();
        let first = &state.data.as_ref().unwrap().bundle.tasks[0];
        assert_eq!(state.draft, Draft::for_task(first));
        let task_id = state.data.as_ref().unwrap().bundle.tasks[1].id.clone();
        let edited = state.apply(Action::EditAndRun {
            task_id: task_id.clone(),
            code: "def f():\n    return 2\n".into(),
        });
        assert_eq!(edited.view, View::Playground);
        assert_eq!(edited.draft.task, Some(task_id));
        assert_eq!(edited.draft.code, "def f():\n    return 2\n");
        // A task the bundle does not have changes nothing.
        let unknown = edited.apply(Action::EditAndRun {
            task_id: TaskId("nope".into()),
            code: String::new(),
        });
        assert_eq!(unknown.draft, edited.draft);
        // Closing the bundle keeps what the probe found.
        let present = Server::Present(Health {
            version: "0".into(),
            languages: vec!["python".into()],
            limits: HealthLimits {
                fuel: 1,
                memory: 1,
                timeout_ms: 1,
            },
        });
        let closed = unknown
            .apply(Action::Server(present.clone()))
            .apply(Action::Close);
        assert_eq!(closed.server, present);
    }

    #[test]
    fn several_bundles_combine_as_the_command_line_does_and_other_tasks_are_refused() {
        let mut bundle = synthetic::bundle(60, 1);
        for result in &mut bundle.results {
            result.model = None;
        }
        let text = serde_json::to_string(&bundle).unwrap();
        let state = State::default().apply(Action::LoadedRuns(vec![
            ("run-a.json".into(), text.clone()),
            ("run-b.json".into(), text.clone()),
        ]));
        assert_eq!(state.load, Load::Ready);
        let data = state.data.as_ref().unwrap();
        assert_eq!(data.source, "run-a.json + run-b.json");
        assert_eq!(data.choices.models, ["run-a", "run-b"]);
        assert_eq!(data.bundle.results.len(), 2 * bundle.results.len());
        assert_eq!(state.compare, [Some("run-a".into()), Some("run-b".into())]);

        let mut other = bundle.clone();
        other.tasks.pop();
        let refused = State::default().apply(Action::LoadedRuns(vec![
            ("run-a.json".into(), text),
            ("other.json".into(), serde_json::to_string(&other).unwrap()),
        ]));
        match refused.load {
            Load::Failed { message, .. } => {
                assert!(message.contains("were run on different tasks"), "{message}")
            }
            load => panic!("{load:?}"),
        }
    }

    #[test]
    fn the_url_names_the_page_and_reopens_it() {
        let state = loaded()
            .apply(Action::Query("topic=strings;year=2018..".into()))
            .apply(Action::GroupBy(vec![Facet::Year, Facet::Model]))
            .apply(Action::Show(View::Samples))
            .apply(Action::Sample(Some(7)));
        let url = Place::of(&state, Some("runs/a b.json"));
        assert_eq!(
            url,
            "?bundle=runs/a%20b.json&view=samples&where=topic%3Dstrings%3Byear%3D2018..&by=year,model&sample=7"
        );
        // The same page from the URL, also when it comes before the bundle.
        let place = Place::parse(&url);
        let reopened = State::default()
            .apply(Action::Go(place.clone()))
            .apply(Action::Loaded {
                source: "synthetic".into(),
                text: serde_json::to_string(&synthetic::bundle(400, 3)).unwrap(),
            });
        assert_eq!(reopened.view, View::Samples);
        assert_eq!(reopened.query_text, state.query_text);
        assert_eq!(reopened.group_by, state.group_by);
        assert_eq!(reopened.sample, Some(7));
        assert_eq!(reopened.report, state.report);
        // Back to the overview: the defaults, and a URL with nothing but the bundle.
        let back = reopened.apply(Action::Go(Place::parse("?bundle=x.json")));
        assert_eq!((back.view, back.sample), (View::Overview, None));
        assert_eq!(Place::of(&back, None), "");
        assert_eq!(url_decode("a%2"), "a%2");
    }

    #[test]
    fn compare_opens_a_task_in_place_and_the_url_names_it() {
        let task = TaskId("synthetic/3".into());
        let state = loaded()
            .apply(Action::Show(View::Compare))
            .apply(Action::CompareTask(Some(task.clone())));
        let url = Place::of(&state, Some("b.json"));
        assert_eq!(
            url,
            "?bundle=b.json&view=compare&compare=model-a,model-b&task=synthetic/3"
        );
        // The link a row points to is that page's URL.
        let row = loaded()
            .apply(Action::Show(View::Compare))
            .link(Some("b.json"), |s| s.compare_task = Some(task.clone()));
        assert_eq!(row, url);
        // The link reopens it, also before the bundle is loaded.
        let reopened = State::default()
            .apply(Action::Go(Place::parse(&url)))
            .apply(Action::Loaded {
                source: "b.json".into(),
                text: serde_json::to_string(&synthetic::bundle(400, 3)).unwrap(),
            });
        assert_eq!(reopened.view, View::Compare);
        assert_eq!(reopened.compare_task, Some(task.clone()));
        // Only Compare names it; closing it, or Back to a URL without it, closes it.
        let elsewhere = reopened.apply(Action::Show(View::Overview));
        assert_eq!(Place::of(&elsewhere, None), "");
        let closed = reopened.apply(Action::CompareTask(None));
        assert_eq!(
            Place::of(&closed, None),
            "?view=compare&compare=model-a,model-b"
        );
        let back = reopened.apply(Action::Go(Place::parse("?view=compare")));
        assert_eq!(back.compare_task, None);
        // What it shows is core's show::show, as `wasmeval show` prints it.
        let data = reopened.data.as_ref().unwrap();
        let shown = wasmeval_core::show::show(
            &data.bundle.tasks,
            &data.bundle.results,
            &data.bundle.runs,
            &wasmeval_core::show::Selection {
                task: Some(task),
                models: vec!["model-a".into(), "model-b".into()],
                sample: None,
            },
        )
        .unwrap();
        assert_eq!(shown.models.len(), 2);
        assert!(shown.diff.is_some());
    }

    #[test]
    fn samples_of_combined_bundles_keep_their_runs_numbers() {
        let mut bundle = synthetic::bundle(60, 1);
        for result in &mut bundle.results {
            result.model = None;
        }
        let n = bundle.results.len() as u64;
        let text = serde_json::to_string(&bundle).unwrap();
        let state = State::default().apply(Action::LoadedRuns(vec![
            ("run-a.json".into(), text.clone()),
            ("run-b.json".into(), text.clone()),
        ]));
        // The site numbered run-b's sample 5 as n + 5 (issue 40: 1011 where the file said 37).
        let number = state.sample_number(n + 5);
        assert_eq!((number.run.as_deref(), number.number), (Some("run-b"), 5));
        assert_eq!(state.sample_number(5).number, 5);
        // A bundle the command line combined says where its runs start; dropped with another,
        // its runs keep their numbers.
        let combined = state.data.as_ref().unwrap().bundle.clone();
        let again = State::default().apply(Action::LoadedRuns(vec![
            ("run-c.json".into(), text),
            ("ab.json".into(), serde_json::to_string(&combined).unwrap()),
        ]));
        let number = again.sample_number(2 * n + 5);
        assert_eq!((number.run.as_deref(), number.number), (Some("run-b"), 5));
        // One bundle of one run: the index is the number.
        let one = loaded();
        assert_eq!(one.sample_number(7).run, None);
        assert_eq!(one.sample_number(7).number, 7);
    }

    #[test]
    fn grouping_changes_the_groups() {
        let state = loaded().apply(Action::GroupBy(vec![Facet::Year, Facet::Model]));
        let report = state.report.unwrap();
        assert_eq!(report.facets, ["year", "model"]);
        assert!(report.groups.iter().all(|g| g.keys.len() == 2));
        let none = loaded().apply(Action::GroupBy(Vec::new()));
        assert!(none.report.unwrap().groups.is_empty());
    }
}
