#include "workpool.h"

#include <QThread>
#include <QThreadPool>

namespace runlane {

QThreadPool* workPool()
{
    static QThreadPool* const pool = [] {
        // Never destroyed: a job may still be finishing as the application
        // exits (its result dropped), and a static pool's destructor would
        // wait for it after QCoreApplication is gone.
        auto* p = new QThreadPool;
        p->setMaxThreadCount(QThread::idealThreadCount());
        p->setObjectName(QStringLiteral("runlane work"));
        return p;
    }();
    return pool;
}

} // namespace runlane
