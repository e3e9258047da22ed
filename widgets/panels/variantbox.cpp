#include "variantbox.h"

#include "profiledocument.h"

#include <QSignalBlocker>

namespace runlane {

VariantBox::VariantBox(ProfileDocument* document, QWidget* parent) : QComboBox(parent), m_document(document)
{
    setObjectName(QStringLiteral("variants"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setToolTip(tr("Which of the file's sample types (or events) is shown; another one loads the file again"));
    connect(m_document, &ProfileDocument::profileChanged, this, &VariantBox::refresh);
    // Activated, not currentIndexChanged: only the user's choice reloads.
    connect(this, &QComboBox::activated, this, [this](int index) {
        const Profile* profile = m_document->profile();
        if (profile && std::size_t(index) != profile->variant())
            Q_EMIT variantRequested(itemText(index));
    });
    refresh();
}

void VariantBox::refresh()
{
    const QSignalBlocker blocker(this);
    clear();
    const Profile* profile = m_document->profile();
    if (!profile || profile->variants().size() < 2) {
        hide();
        return;
    }
    for (const std::string& name : profile->variants())
        addItem(QString::fromStdString(name));
    setCurrentIndex(int(profile->variant()));
    show();
}

} // namespace runlane
