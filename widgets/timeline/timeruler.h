#pragma once

#include "profiletypes.h"

#include <QWidget>

namespace runlane {

class ProfileDocument;
class TimeAxis;

// Ticks and labels for the visible range, in adaptive units (ns, µs, ms, s,
// or the profile's own unit), measured from the profile's start. A selected
// range is shown with its length.
class TimeRuler : public QWidget
{
    Q_OBJECT

public:
    explicit TimeRuler(ProfileDocument* document, QWidget* parent = nullptr);
    QSize sizeHint() const override;
    void paintContent(QPainter& painter, QSize size) const;

    // The tick step for a visible span drawn `width` px wide: 1, 2 or 5
    // times a power of ten, with ticks at least `minimumGap` px apart.
    static Time tickStep(Time span, double width, double minimumGap = 90);
    // A tick's label: enough decimals to tell ticks `step` apart.
    static QString tickLabel(Time offset, Time step, ValueUnit unit);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    ProfileDocument* m_document;
    TimeAxis* m_axis;
};

} // namespace runlane
