//! The probe suites: short prompts whose right answer a rule can check,
//! versioned so a result file names exactly what was asked.
//!
//! `basic-1` has 30 probes in ten categories. Each is small (at most 256
//! output tokens, most far fewer) so the check costs a few dozen short
//! requests per target. A suite is never edited once published: a changed
//! prompt or rule is a new suite (`basic-2`), and files naming `basic-1`
//! keep meaning what they meant.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// A versioned probe suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Suite {
    /// 30 probes: arithmetic, counting, dates, reversal, JSON, one word,
    /// Chinese, long context, tool calls and a tool left uncalled.
    #[serde(rename = "basic-1")]
    Basic1,
}

impl Suite {
    /// Its name in documents.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Suite::Basic1 => "basic-1",
        }
    }

    /// Its probes, in the order they are sent.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn probes(self) -> &'static [Probe] {
        match self {
            Suite::Basic1 => BASIC_1,
        }
    }

    /// The probe called `id`, if the suite has one.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn probe(self, id: &str) -> Option<&'static Probe> {
        self.probes().iter().find(|probe| probe.id == id)
    }
}

/// What a probe tests, for the per-category pass rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// A calculation with one number as the answer.
    Arithmetic,
    /// Counting letters or words.
    Counting,
    /// Calendar arithmetic.
    Date,
    /// Spelling a word backwards.
    Reverse,
    /// A reply that must parse as a JSON object with given members.
    Json,
    /// "Answer in one word".
    OneWord,
    /// An instruction in Chinese, answered in Chinese.
    Chinese,
    /// A fact hidden in a few thousand tokens of filler.
    LongContext,
    /// A function must be called with given arguments.
    ToolCall,
    /// Functions are offered, and none may be called.
    NoToolCall,
}

impl Category {
    /// Every category, in the order reports list them.
    pub const ALL: [Category; 10] = [
        Category::Arithmetic,
        Category::Counting,
        Category::Date,
        Category::Reverse,
        Category::Json,
        Category::OneWord,
        Category::Chinese,
        Category::LongContext,
        Category::ToolCall,
        Category::NoToolCall,
    ];

    /// Its name in documents.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Arithmetic => "arithmetic",
            Category::Counting => "counting",
            Category::Date => "date",
            Category::Reverse => "reverse",
            Category::Json => "json",
            Category::OneWord => "one_word",
            Category::Chinese => "chinese",
            Category::LongContext => "long_context",
            Category::ToolCall => "tool_call",
            Category::NoToolCall => "no_tool_call",
        }
    }
}

/// How the model may use the offered functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model decides (OpenAI `"auto"`, Anthropic `auto`, Gemini `AUTO`).
    Auto,
    /// Some function must be called (OpenAI `"required"`, Anthropic `any`,
    /// Gemini `ANY`).
    Required,
    /// This function must be called (OpenAI and Anthropic name it, Gemini
    /// `ANY` with `allowedFunctionNames`).
    Named(&'static str),
}

/// A function the probes offer: its name, what it does, and its JSON
/// schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tool {
    /// The function's name.
    pub name: &'static str,
    /// What it does, for the model.
    pub description: &'static str,
    /// Its parameters as a JSON schema (the subset all three protocols
    /// take: object, string, number, enum, required).
    pub parameters: &'static str,
}

/// `get_weather(city, unit)`.
pub(crate) const GET_WEATHER: Tool = Tool {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: r#"{"type":"object","properties":{"city":{"type":"string","description":"The city's name in English, e.g. Paris"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city","unit"]}"#,
};

/// `convert_currency(amount, from, to)`.
pub(crate) const CONVERT_CURRENCY: Tool = Tool {
    name: "convert_currency",
    description: "Convert an amount of money from one currency to another.",
    parameters: r#"{"type":"object","properties":{"amount":{"type":"number"},"from":{"type":"string","description":"ISO 4217 code, e.g. EUR"},"to":{"type":"string","description":"ISO 4217 code, e.g. USD"}},"required":["amount","from","to"]}"#,
};

/// The functions every tool probe offers.
pub const TOOLS: [Tool; 2] = [GET_WEATHER, CONVERT_CURRENCY];

/// What a right reply is. Free text is never compared whole: a rule reads
/// the part that has one right value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expect {
    /// The last number in the reply is this one.
    Integer(i64),
    /// The reply is one word (punctuation and case aside) and it is one of
    /// these.
    Word(&'static [&'static str]),
    /// The reply parses as a JSON object (a code fence around it is
    /// allowed) whose members equal these, given as one JSON object.
    Json(&'static str),
    /// The reply is mostly Chinese and contains one of these.
    Chinese(&'static [&'static str]),
    /// A call of this function whose arguments fit its schema and match
    /// these (a JSON object; strings compare without case, and a list
    /// gives the accepted alternatives).
    Call {
        /// The function.
        name: &'static str,
        /// The expected arguments.
        arguments: &'static str,
    },
    /// No function call; the reply is one word, one of these.
    NoCall(&'static [&'static str]),
}

/// Where a long-context probe hides its fact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Haystack {
    /// Filler sentences around the fact (about 21 tokens each).
    pub sentences: usize,
    /// How far in the fact goes, in sentences.
    pub fact_at: usize,
    /// The sentence to find again.
    pub fact: &'static str,
}

/// One probe: the request and the rule for its reply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    /// Unique within its suite, stable forever.
    pub id: &'static str,
    /// What it tests.
    pub category: Category,
    /// The question (after the haystack, for a long-context probe).
    pub question: &'static str,
    /// Filler and a fact placed before the question, if any.
    pub haystack: Option<Haystack>,
    /// The reply's token limit.
    pub max_tokens: u32,
    /// `Some` when the suite's functions ([`TOOLS`]) are offered.
    pub tool_choice: Option<ToolChoice>,
    /// What a right reply is.
    pub expect: Expect,
    /// A right reply, as the rule wants it: what the results show beside
    /// the answer, and what the demo and the mock answer.
    pub model_answer: &'static str,
}

impl Probe {
    /// The prompt as sent: the haystack with its fact, then the question.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn prompt(&self) -> Cow<'static, str> {
        match self.haystack {
            None => Cow::Borrowed(self.question),
            Some(haystack) => Cow::Owned(haystack_text(&haystack, self.question)),
        }
    }

    /// The functions offered with it (none without a tool choice).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn tools(&self) -> &'static [Tool] {
        if self.tool_choice.is_some() {
            &TOOLS
        } else {
            &[]
        }
    }
}

/// Filler that no model can answer the question from: a fixed, varied
/// list of dull facts about a warehouse, walked with a fixed stride.
const FILLER: &[&str] = &[
    "The warehouse opens at seven and the first delivery usually arrives a little after eight.",
    "Shelves in the north aisle hold paper goods, and the south aisle holds cleaning supplies.",
    "On Tuesdays the forklift is serviced, so heavy pallets wait until the afternoon.",
    "The loading dock has three doors, and the middle one sticks when the weather is damp.",
    "Inventory is counted by hand once a month and checked against the ledger the next day.",
    "A radio in the break room plays old songs at a volume nobody has ever agreed on.",
    "Broken boxes are flattened and stacked by the recycling bins near the east wall.",
    "The night guard walks the whole floor twice and writes the time of each round in a book.",
    "Labels are printed in the office and carried down in a shoebox that is older than the staff.",
    "When it rains the skylights leak in two places, and buckets are set out beneath them.",
    "New staff spend their first week shadowing someone who has worked there for years.",
    "The coffee machine is cleaned on Fridays, which is why the coffee tastes better on Mondays.",
    "Orders marked urgent are placed on the red trolley and packed before anything else.",
];

#[cfg_attr(target_arch = "wasm32", inline)]
fn haystack_text(haystack: &Haystack, question: &str) -> String {
    let mut text = String::with_capacity(haystack.sentences * 96 + question.len() + 128);
    text.push_str("Read the notes below, then answer the question after them.\n\n");
    for index in 0..haystack.sentences {
        if index == haystack.fact_at {
            let _ = write!(text, "{} ", haystack.fact);
        }
        // A stride coprime with the list's length: every sentence comes
        // round, never twice in a row.
        let sentence = FILLER[(index * 5 + index / FILLER.len()) % FILLER.len()];
        let _ = write!(text, "{sentence} ");
    }
    text.push_str("\n\n");
    text.push_str(question);
    text
}

const NUMBER_ONLY: u32 = 64;
const ONE_WORD: u32 = 64;
const JSON_REPLY: u32 = 128;
const TOOL_REPLY: u32 = 256;

/// The `basic-1` suite.
pub(crate) const BASIC_1: &[Probe] = &[
    Probe {
        id: "arith-mul",
        category: Category::Arithmetic,
        question: "What is 17 multiplied by 23? Reply with the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(391),
        model_answer: "391",
    },
    Probe {
        id: "arith-add",
        category: Category::Arithmetic,
        question: "What is 4821 plus 3957? Reply with the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(8778),
        model_answer: "8778",
    },
    Probe {
        id: "arith-power",
        category: Category::Arithmetic,
        question: "What is 2 to the power of 12? Reply with the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(4096),
        model_answer: "4096",
    },
    Probe {
        id: "arith-word",
        category: Category::Arithmetic,
        question: "Pens cost 3 dollars for a pack of 4. How many dollars do 20 pens cost? \
                   Reply with the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(15),
        model_answer: "15",
    },
    Probe {
        id: "arith-sub",
        category: Category::Arithmetic,
        question: "What is 1000 minus 263? Reply with the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(737),
        model_answer: "737",
    },
    Probe {
        id: "count-letter",
        category: Category::Counting,
        question: "How many times does the letter \"s\" appear in the word \"mississippi\"? \
                   Reply with the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(4),
        model_answer: "4",
    },
    Probe {
        id: "count-words",
        category: Category::Counting,
        question: "How many words are in this sentence: \"the quick brown fox jumps over the \
                   lazy dog\"? Reply with the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(9),
        model_answer: "9",
    },
    Probe {
        id: "count-vowels",
        category: Category::Counting,
        question: "How many vowels (a, e, i, o, u) are in the word \"education\"? Reply with \
                   the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(5),
        model_answer: "5",
    },
    Probe {
        id: "date-days",
        category: Category::Date,
        question: "How many days are there from 2024-02-27 to 2024-03-02, counting \
                   2024-03-02 but not 2024-02-27? Reply with the number only.",
        haystack: None,
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(4),
        model_answer: "4",
    },
    Probe {
        id: "date-weekday",
        category: Category::Date,
        question: "What day of the week was 1 January 2000? Answer in one word.",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Word(&["saturday"]),
        model_answer: "Saturday",
    },
    Probe {
        id: "reverse-latency",
        category: Category::Reverse,
        question: "Write the word \"latency\" backwards. Reply with the reversed word only.",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Word(&["ycnetal"]),
        model_answer: "ycnetal",
    },
    Probe {
        id: "reverse-provider",
        category: Category::Reverse,
        question: "Write the word \"provider\" backwards. Reply with the reversed word only.",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Word(&["redivorp"]),
        model_answer: "redivorp",
    },
    Probe {
        id: "json-person",
        category: Category::Json,
        question: "Reply with a JSON object only, with the member \"name\" set to \"Ada\" and \
                   the member \"year\" set to the number 1815.",
        haystack: None,
        max_tokens: JSON_REPLY,
        tool_choice: None,
        expect: Expect::Json(r#"{"name":"Ada","year":1815}"#),
        model_answer: r#"{"name": "Ada", "year": 1815}"#,
    },
    Probe {
        id: "json-list",
        category: Category::Json,
        question: "Reply with a JSON object only, with the member \"ok\" set to true and the \
                   member \"primes\" set to a list of the first four prime numbers.",
        haystack: None,
        max_tokens: JSON_REPLY,
        tool_choice: None,
        expect: Expect::Json(r#"{"ok":true,"primes":[2,3,5,7]}"#),
        model_answer: r#"{"ok": true, "primes": [2, 3, 5, 7]}"#,
    },
    Probe {
        id: "json-nested",
        category: Category::Json,
        question: "Reply with a JSON object only, with the member \"city\" set to \"Lyon\" and \
                   the member \"country\" set to an object whose member \"code\" is \"FR\".",
        haystack: None,
        max_tokens: JSON_REPLY,
        tool_choice: None,
        expect: Expect::Json(r#"{"city":"Lyon","country":{"code":"FR"}}"#),
        model_answer: r#"{"city": "Lyon", "country": {"code": "FR"}}"#,
    },
    Probe {
        id: "word-capital",
        category: Category::OneWord,
        question: "What is the capital of Japan? Answer in one word.",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Word(&["tokyo"]),
        model_answer: "Tokyo",
    },
    Probe {
        id: "word-planet",
        category: Category::OneWord,
        question: "Which planet is known as the Red Planet? Answer in one word.",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Word(&["mars"]),
        model_answer: "Mars",
    },
    Probe {
        id: "word-opposite",
        category: Category::OneWord,
        question: "What is the opposite of \"cold\"? Answer in one word.",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Word(&["hot", "warm"]),
        model_answer: "Hot",
    },
    Probe {
        id: "zh-capital",
        category: Category::Chinese,
        question: "请用中文回答：中国的首都是哪座城市？只回答城市名。",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Chinese(&["北京"]),
        model_answer: "北京",
    },
    Probe {
        id: "zh-seasons",
        category: Category::Chinese,
        question: "请用中文回答：一年有几个季节？用汉字写数字，只回答这个数字。",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Chinese(&["四"]),
        model_answer: "四",
    },
    Probe {
        id: "zh-translate",
        category: Category::Chinese,
        question: "请把英文单词 \"thank you\" 翻译成中文，只回答译文。",
        haystack: None,
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Chinese(&["谢谢", "感谢"]),
        model_answer: "谢谢",
    },
    Probe {
        id: "long-code",
        category: Category::LongContext,
        question: "What is the access code for the blue door, according to the notes? Reply \
                   with the number only.",
        haystack: Some(Haystack {
            sentences: 160,
            fact_at: 41,
            fact: "The access code for the blue door is 7342.",
        }),
        max_tokens: NUMBER_ONLY,
        tool_choice: None,
        expect: Expect::Integer(7342),
        model_answer: "7342",
    },
    Probe {
        id: "long-cat",
        category: Category::LongContext,
        question: "What is the name of the warehouse cat, according to the notes? Answer in \
                   one word.",
        haystack: Some(Haystack {
            sentences: 160,
            fact_at: 9,
            fact: "The warehouse cat is called Biscuit and sleeps on the label printer.",
        }),
        max_tokens: ONE_WORD,
        tool_choice: None,
        expect: Expect::Word(&["biscuit"]),
        model_answer: "Biscuit",
    },
    Probe {
        id: "tool-weather-auto",
        category: Category::ToolCall,
        question: "What is the weather in Paris right now, in celsius?",
        haystack: None,
        max_tokens: TOOL_REPLY,
        tool_choice: Some(ToolChoice::Auto),
        expect: Expect::Call {
            name: "get_weather",
            arguments: r#"{"city":"Paris","unit":"celsius"}"#,
        },
        model_answer: r#"get_weather({"city": "Paris", "unit": "celsius"})"#,
    },
    Probe {
        id: "tool-weather-required",
        category: Category::ToolCall,
        question: "Look up the weather for Tokyo in fahrenheit.",
        haystack: None,
        max_tokens: TOOL_REPLY,
        tool_choice: Some(ToolChoice::Required),
        expect: Expect::Call {
            name: "get_weather",
            arguments: r#"{"city":"Tokyo","unit":"fahrenheit"}"#,
        },
        model_answer: r#"get_weather({"city": "Tokyo", "unit": "fahrenheit"})"#,
    },
    Probe {
        id: "tool-currency-auto",
        category: Category::ToolCall,
        question: "Convert 250 euros to US dollars.",
        haystack: None,
        max_tokens: TOOL_REPLY,
        tool_choice: Some(ToolChoice::Auto),
        expect: Expect::Call {
            name: "convert_currency",
            arguments: r#"{"amount":250,"from":"EUR","to":"USD"}"#,
        },
        model_answer: r#"convert_currency({"amount": 250, "from": "EUR", "to": "USD"})"#,
    },
    Probe {
        id: "tool-currency-named",
        category: Category::ToolCall,
        question: "I have 1000 Japanese yen. How much is that in British pounds?",
        haystack: None,
        max_tokens: TOOL_REPLY,
        tool_choice: Some(ToolChoice::Named("convert_currency")),
        expect: Expect::Call {
            name: "convert_currency",
            arguments: r#"{"amount":1000,"from":"JPY","to":"GBP"}"#,
        },
        model_answer: r#"convert_currency({"amount": 1000, "from": "JPY", "to": "GBP"})"#,
    },
    Probe {
        id: "tool-weather-zh",
        category: Category::ToolCall,
        question: "北京现在的天气怎么样？请用摄氏度。",
        haystack: None,
        max_tokens: TOOL_REPLY,
        tool_choice: Some(ToolChoice::Auto),
        expect: Expect::Call {
            name: "get_weather",
            arguments: r#"{"city":["Beijing","北京"],"unit":"celsius"}"#,
        },
        model_answer: r#"get_weather({"city": "Beijing", "unit": "celsius"})"#,
    },
    Probe {
        id: "no-tool-capital",
        category: Category::NoToolCall,
        question: "Without using any tool: what is the capital of Italy? Answer in one word.",
        haystack: None,
        max_tokens: TOOL_REPLY,
        tool_choice: Some(ToolChoice::Auto),
        expect: Expect::NoCall(&["rome", "roma"]),
        model_answer: "Rome",
    },
    Probe {
        id: "no-tool-greeting",
        category: Category::NoToolCall,
        question: "Without using any tool: how do you say \"hello\" in French? Answer in one \
                   word.",
        haystack: None,
        max_tokens: TOOL_REPLY,
        tool_choice: Some(ToolChoice::Auto),
        expect: Expect::NoCall(&["bonjour", "salut"]),
        model_answer: "Bonjour",
    },
];

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn basic_1_has_thirty_probes_with_unique_ids_in_every_category() {
        let probes = Suite::Basic1.probes();
        assert_eq!(probes.len(), 30);
        let ids: HashSet<&str> = probes.iter().map(|probe| probe.id).collect();
        assert_eq!(ids.len(), probes.len());
        for category in Category::ALL {
            assert!(
                probes.iter().any(|probe| probe.category == category),
                "{category:?}"
            );
        }
        // Forced and automatic tool choice, and one must-not-call, are all there.
        let choices: Vec<_> = probes
            .iter()
            .filter_map(|probe| probe.tool_choice)
            .collect();
        assert!(choices.contains(&ToolChoice::Auto));
        assert!(choices.contains(&ToolChoice::Required));
        assert!(choices.iter().any(|c| matches!(c, ToolChoice::Named(_))));
    }

    #[test]
    fn a_haystack_holds_its_fact_once_at_its_place_and_is_a_few_thousand_tokens() {
        for probe in Suite::Basic1.probes() {
            let Some(haystack) = probe.haystack else {
                continue;
            };
            let prompt = probe.prompt();
            assert_eq!(prompt.matches(haystack.fact).count(), 1, "{}", probe.id);
            assert!(prompt.ends_with(probe.question));
            // About four characters a token: 3 000–5 000 tokens.
            assert!((12_000..20_000).contains(&prompt.len()), "{}", prompt.len());
            // The same prompt every time: a result file names its requests.
            assert_eq!(prompt, probe.prompt());
        }
    }

    #[test]
    fn every_tool_schema_is_json_and_named_choices_name_an_offered_function() {
        for tool in TOOLS {
            let schema: serde_json::Value = serde_json::from_str(tool.parameters).unwrap();
            assert_eq!(schema["type"], "object");
        }
        for probe in Suite::Basic1.probes() {
            if let Some(ToolChoice::Named(name)) = probe.tool_choice {
                assert!(probe.tools().iter().any(|tool| tool.name == name));
            }
            if let Expect::Call { name, arguments } = probe.expect {
                assert!(probe.tools().iter().any(|tool| tool.name == name));
                let _: serde_json::Value = serde_json::from_str(arguments).unwrap();
            }
        }
    }

    #[test]
    fn suite_names_read_and_write() {
        let text = crate::base::document::to_string(&Suite::Basic1);
        assert_eq!(text, "\"basic-1\"");
        assert!(crate::base::document::from_str::<Suite>("\"basic-9\"").is_err());
        assert_eq!(
            Suite::Basic1.probe("arith-mul").unwrap().model_answer,
            "391"
        );
        assert!(Suite::Basic1.probe("nope").is_none());
    }
}
