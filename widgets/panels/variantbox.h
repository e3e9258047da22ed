#pragma once

#include <QComboBox>

namespace runlane {

class ProfileDocument;

// The file's variants (pprof sample types, perf events; Profile::variants)
// as a choice beside the status text, the loaded one selected. Hidden for a
// profile with fewer than two. Choosing another asks for the file to be
// loaded again with it: a variant is chosen while reading, not afterwards,
// because the other sample types' values are not kept.
class VariantBox : public QComboBox
{
    Q_OBJECT

public:
    explicit VariantBox(ProfileDocument* document, QWidget* parent = nullptr);

Q_SIGNALS:
    void variantRequested(const QString& name);

private:
    void refresh();

    ProfileDocument* m_document;
};

} // namespace runlane
