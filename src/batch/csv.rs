//! Minimal RFC 4180 CSV: enough to read a conditions table written by a spreadsheet and to
//! write the results table.

use std::io::Write;

/// A CSV syntax error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CsvError {
    pub line: usize,
    pub message: String,
}

/// A record and the line it starts on (1-based).
pub type Record = (usize, Vec<String>);

/// Parses CSV text: fields separated by commas, records by `\n` or `\r\n`; a field in double
/// quotes may hold commas, line breaks and doubled quotes (`""`). A leading UTF-8 byte order
/// mark is skipped, unquoted fields are trimmed, and blank lines are skipped.
pub fn parse(text: &str) -> Result<Vec<Record>, CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut quoted = false; // the current field was quoted
    let mut in_quotes = false;
    let mut line = 1;
    let mut start_line = 1;
    let mut chars = text.chars().peekable();
    let finish_field = |field: &mut String, quoted: &mut bool, record: &mut Vec<String>| {
        let value = if *quoted {
            std::mem::take(field)
        } else {
            let trimmed = field.trim().to_string();
            field.clear();
            trimmed
        };
        record.push(value);
        *quoted = false;
    };
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.trim().is_empty() && !quoted => {
                field.clear();
                quoted = true;
                in_quotes = true;
            }
            '"' => return Err(CsvError {
                line,
                message:
                    "a quote inside an unquoted field (quote the whole field and double the quote)"
                        .into(),
            }),
            ',' => finish_field(&mut field, &mut quoted, &mut record),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                finish_field(&mut field, &mut quoted, &mut record);
                let blank = record.len() == 1 && record[0].is_empty();
                if !blank {
                    records.push((start_line, std::mem::take(&mut record)));
                }
                record.clear();
                line += 1;
                start_line = line;
            }
            _ if quoted => {
                if !c.is_whitespace() {
                    return Err(CsvError {
                        line,
                        message: format!("{c:?} after a closing quote"),
                    });
                }
            }
            _ => field.push(c),
        }
    }
    if in_quotes {
        return Err(CsvError {
            line: start_line,
            message: "a quoted field is not closed".into(),
        });
    }
    if !field.is_empty() || quoted || !record.is_empty() {
        finish_field(&mut field, &mut quoted, &mut record);
        let blank = record.len() == 1 && record[0].is_empty();
        if !blank {
            records.push((start_line, record));
        }
    }
    Ok(records)
}

/// Quotes a field when it holds a comma, a quote, a line break or surrounding spaces.
pub fn quote(field: &str) -> String {
    let needs = field.contains([',', '"', '\n', '\r'])
        || field.starts_with(char::is_whitespace)
        || field.ends_with(char::is_whitespace);
    if needs {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// Writes one record and a `\n`.
pub fn write_record(out: &mut impl Write, fields: &[String]) -> std::io::Result<()> {
    let line: Vec<String> = fields.iter().map(|f| quote(f)).collect();
    out.write_all(line.join(",").as_bytes())?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_quotes_and_line_breaks() {
        let text = "\u{feff}file,riichi, note \r\n\"a,b.jpg\",true,\"say \"\"hi\"\"\nthere\"\n\n c.jpg ,0,\n";
        let records = parse(text).unwrap();
        assert_eq!(records.len(), 3);
        assert_eq!(
            records[0],
            (1, vec!["file".into(), "riichi".into(), "note".into()])
        );
        assert_eq!(
            records[1],
            (
                2,
                vec!["a,b.jpg".into(), "true".into(), "say \"hi\"\nthere".into()]
            )
        );
        assert_eq!(records[2], (5, vec!["c.jpg".into(), "0".into(), "".into()]));
    }

    #[test]
    fn round_trips() {
        let fields: Vec<String> = ["plain", "a,b", "q\"uote", "line\nbreak", " pad", ""]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut out = Vec::new();
        write_record(&mut out, &fields).unwrap();
        let parsed = parse(std::str::from_utf8(&out).unwrap()).unwrap();
        assert_eq!(parsed, vec![(1, fields)]);
    }

    #[test]
    fn rejects_bad_quotes() {
        assert!(parse("a,b\"c\n").is_err());
        assert!(parse("\"open\n").is_err());
        assert!(parse("\"x\"y,1\n").is_err());
    }
}
