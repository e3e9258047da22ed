#pragma once

#include <QRegularExpression>
#include <QString>

namespace runlane {

// What people type into a find or filter field: a case-insensitive
// substring, or a regular expression written /like this/.
class SearchPattern
{
public:
    explicit SearchPattern(const QString& text)
        : m_text(text),
          m_isRegex(text.size() > 2 && text.startsWith(QLatin1Char('/')) && text.endsWith(QLatin1Char('/'))),
          m_regex(m_isRegex ? text.mid(1, text.size() - 2) : QString(), QRegularExpression::CaseInsensitiveOption)
    {
    }

    bool isRegex() const { return m_isRegex; }
    // False for a regular expression that does not compile (often one
    // being typed).
    bool isValid() const { return !m_isRegex || m_regex.isValid(); }
    const QRegularExpression& regex() const { return m_regex; }
    bool matches(const QString& name) const
    {
        return m_isRegex ? m_regex.match(name).hasMatch() : name.contains(m_text, Qt::CaseInsensitive);
    }

private:
    QString m_text;
    bool m_isRegex;
    QRegularExpression m_regex;
};

} // namespace runlane
