#pragma once

#include <QFrame>

class QLabel;
class QPushButton;
class QToolButton;

namespace runlane {

// A strip across the top of the window for what the user must not miss
// but need not confirm: only the first of several dropped files was
// opened, the file was cut short, it gave warnings. Unlike a status bar
// message it stays until the next file or its ✕; unlike a message box it
// does not stop the user. Links in the text are reported by linkActivated.
class NoticeBar : public QFrame
{
    Q_OBJECT

public:
    enum class Level { Info, Warning };

    explicit NoticeBar(QWidget* parent = nullptr);

    // Adds a line (several notices can stand together); shows the bar.
    void addNotice(const QString& richText, Level level = Level::Info);
    // The one notice of a bar that says what goes on (the loading banner),
    // replaced in place: the bar is not hidden and shown again, which laid
    // out the whole window, and an unchanged text is not laid out again.
    void setNotice(const QString& richText, Level level = Level::Info);
    void clearNotices();
    QStringList notices() const { return m_lines; }
    // A button at the end of the bar, before its ✕, kept across notices
    // (the loading banner's Stop and Cancel).
    QPushButton* addButton(const QString& text, const QString& objectName);
    // Without the ✕: a bar that says what goes on until it ends.
    void setDismissible(bool dismissible);

Q_SIGNALS:
    void linkActivated(const QString& link);

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    QLabel* m_text;
    QToolButton* m_close;
    QStringList m_lines;
    Level m_level = Level::Info;
};

} // namespace runlane
