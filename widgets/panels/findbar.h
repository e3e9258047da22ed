#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QTimer;

namespace runlane {

class ProfileDocument;

// Ctrl+F: labels whose name contains the text (or matches /a regex/) are
// highlighted in every view and the rest dimmed; Enter and Shift+Enter (or
// F3, Shift+F3) zoom to the next and previous occurrence in time.
class FindBar : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(ProfileDocument* document, QWidget* parent = nullptr);

    // Shows the bar with the focus in its text field.
    void activate();
    QLineEdit* field() const { return m_field; }
    QString matchSummary() const;
    // Enter, Shift+Enter and the arrows: the next or previous match of the
    // search, in time, whatever label is focused elsewhere.
    void step(bool forward);

Q_SIGNALS:
    // Closed (Escape, ✕): the owner gives the keyboard to a view if it had
    // no other place to go back to.
    void dismissed();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void apply();
    void updateCount();
    // What the counts are of, when the profile is a preview of a file
    // still loading (" · so far, boxes of 1.05 ms or more"); else empty.
    QString previewNote() const;
    void close();

    ProfileDocument* m_document;
    QLineEdit* m_field;
    QLabel* m_count;
    QTimer* m_debounce;
    // Where the keyboard was before Ctrl+F: it goes back there on Escape,
    // so that the views' single-key shortcuts work again at once.
    QPointer<QWidget> m_returnFocus;
};

} // namespace runlane
